// Included once per instruction set, into its namespace, by exec/kernels/plane_kernels.hpp (no include guard).
// MaxPool over one plane, in passes along W, then H, then D. Each pass keeps the first maximum of its
// window in scan order, so the combined pick is the first maximum in D, H, W order: exactly the element
// OpenVINO's reference picks with its strict comparison (NaN and lowest() never win; no winner leaves
// index 0). The order matters even without indices: of 0 and -0 the first one is kept.

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace irlint::kernels::IRLINT_ISA {

template <class Traits, class V, class I>
void indexed_w_pass(const V* src, V* dst, I* dst_idx, int64_t rows, const AxisTaps& axis, MaxScratch<V, I>& s) {
    const V lowest = Traits::lowest();
    const InteriorRange inner = axis.interior;
    s.best_tap.resize(static_cast<size_t>(axis.out));
    int32_t* IRLINT_RESTRICT tap = s.best_tap.data();
    for (int64_t r = 0; r < rows; ++r) {
        const V* line = src + r * axis.in;
        V* IRLINT_RESTRICT best = dst + r * axis.out;
        I* IRLINT_RESTRICT best_idx = dst_idx + r * axis.out;
        for (int64_t o = 0; o < axis.out; ++o) {
            best[o] = lowest;
            tap[o] = -1;
            if (o >= inner.first && o < inner.last) continue;
            for (int64_t k = axis.lo[o]; k < axis.hi[o]; ++k) {
                const V v = line[axis.start[o] + k * axis.dilation];
                if (v > best[o]) {
                    best[o] = v;
                    tap[o] = static_cast<int32_t>(k);
                }
            }
        }
        if (inner.last > inner.first) {
            const InteriorRuns<V> runs = interior_runs(line, axis.in, axis.start[inner.first], axis, s.running.phases);
            const int64_t count = inner.last - inner.first;
            V* IRLINT_RESTRICT b = best + inner.first;
            int32_t* IRLINT_RESTRICT t = tap + inner.first;
            for (int64_t k = 0; k < axis.kernel; ++k) {
                const V* IRLINT_RESTRICT run = runs.run(k);
                const auto tap_k = static_cast<int32_t>(k);
                for (int64_t i = 0; i < count; ++i) {
                    const V v = run[i], held = b[i];
                    const int32_t take = -static_cast<int32_t>(v > held);  // all ones when v wins: branch-free
                    b[i] = v > held ? v : held;
                    t[i] = (tap_k & take) | (t[i] & ~take);
                }
            }
        }
        for (int64_t o = 0; o < axis.out; ++o)
            best_idx[o] = tap[o] < 0 ? I{-1} : static_cast<I>(r * axis.in + axis.start[o] + tap[o] * axis.dilation);
    }
}

template <class Traits, class V, class I>
void indexed_strided_pass(const V* src, const I* src_idx, V* dst, I* dst_idx, int64_t inner, const AxisTaps& axis) {
    const V lowest = Traits::lowest();
    for (int64_t o = 0; o < axis.out; ++o) {
        V* IRLINT_RESTRICT best = dst + o * inner;
        I* IRLINT_RESTRICT best_idx = dst_idx + o * inner;
        for (int64_t i = 0; i < inner; ++i) {
            best[i] = lowest;
            best_idx[i] = I{-1};
        }
        for (int64_t k = axis.lo[o]; k < axis.hi[o]; ++k) {
            const int64_t pos = axis.start[o] + k * axis.dilation;
            const V* IRLINT_RESTRICT v = src + pos * inner;
            const I* IRLINT_RESTRICT vi = src_idx + pos * inner;
            for (int64_t i = 0; i < inner; ++i) {
                const V value = v[i], b = best[i];
                const I take = -static_cast<I>(value > b);  // all ones when value wins: a branch-free select
                best[i] = value > b ? value : b;
                best_idx[i] = (vi[i] & take) | (best_idx[i] & ~take);
            }
        }
    }
}

// Values and flat spatial indices (-1 where no tap won) of one plane. Flattened: with its passes inlined the
// indexed route measured 4% faster (MaxPool k3 s2 with indices, 64x112x112), for a few seconds of compile.
template <class Traits, class V, class I>
[[gnu::flatten]] void max_pool_plane_indexed(Isa, const V* in, const PlaneGeometry& g, MaxScratch<V, I>& s, V* out, I* out_idx) {
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    const bool h_last = d.passes_through(), w_last = h_last && h.passes_through();
    const auto w_size = static_cast<size_t>(d.in * h.in * w.out);
    s.values[0].resize(w_last ? 0 : w_size);
    s.indices[0].resize(w_last ? 0 : w_size);
    V* wv = w_last ? out : s.values[0].data();
    I* wi = w_last ? out_idx : s.indices[0].data();
    indexed_w_pass<Traits>(in, wv, wi, d.in * h.in, w, s);
    if (!h.passes_through()) {
        const auto h_size = static_cast<size_t>(d.in * h.out * w.out);
        s.values[1].resize(h_last ? 0 : h_size);
        s.indices[1].resize(h_last ? 0 : h_size);
        V* hv = h_last ? out : s.values[1].data();
        I* hi = h_last ? out_idx : s.indices[1].data();
        for (int64_t pd = 0; pd < d.in; ++pd)
            indexed_strided_pass<Traits>(wv + pd * h.in * w.out, wi + pd * h.in * w.out, hv + pd * h.out * w.out,
                                         hi + pd * h.out * w.out, w.out, h);
        wv = hv;
        wi = hi;
    }
    if (!d.passes_through()) indexed_strided_pass<Traits>(wv, wi, out, out_idx, h.out * w.out, d);
}

// Values only: the same W, H, D passes without the index bookkeeping.
template <class Traits, class V>
void max_pool_plane(Isa, const V* in, const PlaneGeometry& g, MaxScratch<V>& s, V* out) {
    using R = MaxReducer<Traits>;
    const AxisTaps& d = g.axes[0];
    const AxisTaps& h = g.axes[1];
    const AxisTaps& w = g.axes[2];
    const bool h_last = d.passes_through(), w_last = h_last && h.passes_through();
    if constexpr (std::is_integral_v<V>) {
        // Integer maxima (f16 keys too) do not depend on the order of the taps, so a 2-D plane can go
        // along H first: the W pass, which splits each line into its phases, then has H's fewer rows.
        if (h_last && !h.passes_through() && !w.passes_through()) {
            s.values[0].resize(static_cast<size_t>(d.in * h.out * w.in));
            reduce_axis<R, V, V>(in, s.values[0].data(), d.in, w.in, h, s.running);
            reduce_axis<R, V, V>(s.values[0].data(), out, d.in * h.out, 1, w, s.running);
            return;
        }
    }
    s.values[0].resize(w_last ? 0 : static_cast<size_t>(d.in * h.in * w.out));
    V* after_w = w_last ? out : s.values[0].data();
    reduce_axis<R, V, V>(in, after_w, d.in * h.in, 1, w, s.running);
    if (!h.passes_through()) {
        s.values[1].resize(h_last ? 0 : static_cast<size_t>(d.in * h.out * w.out));
        V* after_h = h_last ? out : s.values[1].data();
        reduce_axis<R, V, V>(after_w, after_h, d.in, w.out, h, s.running);
        after_w = after_h;
    }
    if (!d.passes_through()) reduce_axis<R, V, V>(after_w, out, 1, h.out * w.out, d, s.running);
}

}  // namespace irlint::kernels::IRLINT_ISA
