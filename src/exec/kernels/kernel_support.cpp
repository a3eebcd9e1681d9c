#include "exec/kernels/kernel_support.hpp"

#include <thread>

#include "exec/kernels/worker_pool.hpp"

namespace irlint::kernels {

namespace {
// Smallest k >= 0 with start + k*dilation >= bound.
int64_t first_tap_at_or_after(int64_t start, int64_t dilation, int64_t bound) {
    if (start >= bound) return 0;
    return (bound - start + dilation - 1) / dilation;
}

void find_interior(AxisTaps& a) {
    InteriorRange& r = a.interior;
    r = {};
    if (a.stride == 0) return;
    auto whole = [&](int64_t o) { return a.lo[o] == 0 && a.hi[o] == a.kernel; };
    while (r.first < a.out && !whole(r.first)) ++r.first;
    r.last = a.out;
    while (r.last > r.first && !whole(r.last - 1)) --r.last;
    for (int64_t o = r.first; o < r.last; ++o)
        if (!whole(o)) {  // not one run: every output is treated as a border one
            r = {};
            return;
        }
}
}  // namespace

AxisTaps axis_taps(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t dilation, int64_t pad_begin) {
    AxisTaps a;
    a.in = in;
    a.out = out;
    a.kernel = kernel;
    a.dilation = dilation;
    a.stride = stride;
    a.start.resize(static_cast<size_t>(out));
    a.lo.resize(static_cast<size_t>(out));
    a.hi.resize(static_cast<size_t>(out));
    for (int64_t o = 0; o < out; ++o) {
        const int64_t start = o * stride - pad_begin;
        const int64_t lo = std::min(kernel, first_tap_at_or_after(start, dilation, 0));
        const int64_t hi = std::clamp(first_tap_at_or_after(start, dilation, in), lo, kernel);
        a.start[o] = start;
        a.lo[o] = lo;
        a.hi[o] = hi;
    }
    find_interior(a);
    return a;
}

AxisTaps adaptive_taps(int64_t in, int64_t out) {
    AxisTaps a;
    a.in = in;
    a.out = out;
    a.stride = out > 0 && in % out == 0 ? in / out : 0;
    for (int64_t o = 0; o < out; ++o) {
        const int64_t begin = o * in / out, end = ((o + 1) * in + out - 1) / out;
        a.start.push_back(begin);
        a.lo.push_back(0);
        a.hi.push_back(end - begin);
        a.kernel = std::max(a.kernel, end - begin);
    }
    find_interior(a);
    return a;
}

namespace {
// Outputs [o0, o1) of an axis, re-based on the first input position they read (*first).
AxisTaps slice_axis(const AxisTaps& a, int64_t o0, int64_t o1, int64_t* first) {
    int64_t begin = a.in, end = 0;
    for (int64_t o = o0; o < o1; ++o) {
        if (a.hi[o] <= a.lo[o]) continue;
        begin = std::min(begin, a.start[o] + a.lo[o] * a.dilation);
        end = std::max(end, a.start[o] + (a.hi[o] - 1) * a.dilation + 1);
    }
    if (begin >= end) begin = end = 0;
    AxisTaps s = a;
    s.origin = a.origin + begin;
    s.in = end - begin;
    s.out = o1 - o0;
    s.start.assign(a.start.begin() + o0, a.start.begin() + o1);
    for (int64_t& st : s.start) st -= begin;
    s.lo.assign(a.lo.begin() + o0, a.lo.begin() + o1);
    s.hi.assign(a.hi.begin() + o0, a.hi.begin() + o1);
    find_interior(s);
    *first = begin;
    return s;
}

std::vector<Slab> plane_slabs(const PlaneGeometry& g, int64_t planes, int64_t workers) {
    size_t outer = 0;
    while (outer < 3 && g.axes[outer].trivial()) ++outer;
    if (planes >= workers || outer == 3) return {Slab{g, 0, 0}};
    const AxisTaps& axis = g.axes[outer];
    const int64_t chunks = std::min(axis.out, (workers + planes - 1) / planes);
    int64_t inner_in = 1, inner_out = 1;
    for (size_t a = outer + 1; a < 3; ++a) {
        inner_in *= g.axes[a].in;
        inner_out *= g.axes[a].out;
    }
    std::vector<Slab> slabs;
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t o0 = c * axis.out / chunks, o1 = (c + 1) * axis.out / chunks;
        Slab slab{g, 0, o0 * inner_out};
        int64_t first = 0;
        slab.geometry.axes[outer] = slice_axis(axis, o0, o1, &first);
        slab.in_offset = first * inner_in;
        slabs.push_back(std::move(slab));
    }
    return slabs;
}

// Elements (input or output, the larger) a stack of planes aims at: its passes stay in the core's caches.
constexpr int64_t stack_elements = 16384;

// Planes per stack: as many as fill the target, in a number of stacks the workers share evenly.
int64_t stack_size(const PlaneGeometry& g, int64_t planes, int64_t workers) {
    if (!g.axes[0].trivial() || planes < 2) return 1;
    const int64_t fit = stack_elements / std::max({g.in_size(), g.out_size(), int64_t{1}});
    if (fit < 2) return 1;
    int64_t stacks = (planes + fit - 1) / fit;
    stacks = (stacks + workers - 1) / workers * workers;
    return (planes + stacks - 1) / stacks;
}

Slab stack_of(const PlaneGeometry& g, int64_t planes) {
    Slab s{g, 0, 0};
    s.geometry.axes[0] = axis_taps(planes, planes, 1, 1, 1, 0);
    return s;
}
}  // namespace

PlaneWork::PlaneWork(const PlaneGeometry& g, int64_t planes, int threads)
    : planes_(planes), plane_outputs_(g.out_size()) {
    const int64_t workers = resolve_threads(threads);
    stack_ = stack_size(g, planes, workers);
    if (stack_ == 1) {
        shapes_ = plane_slabs(g, planes, workers);
        return;
    }
    shapes_.push_back(stack_of(g, stack_));
    if (planes % stack_ != 0) shapes_.push_back(stack_of(g, planes % stack_));
}

int64_t PlaneWork::units() const {
    if (stack_ > 1) return (planes_ + stack_ - 1) / stack_;
    return planes_ * static_cast<int64_t>(shapes_.size());
}

int64_t PlaneWork::first_plane(int64_t unit) const {
    return stack_ > 1 ? unit * stack_ : unit / static_cast<int64_t>(shapes_.size());
}

const Slab& PlaneWork::slab(int64_t unit) const {
    if (stack_ > 1) return (unit + 1) * stack_ > planes_ ? shapes_.back() : shapes_.front();
    return shapes_[static_cast<size_t>(unit % static_cast<int64_t>(shapes_.size()))];
}

int64_t PlaneWork::output_begin(int64_t unit) const { return first_plane(unit) * plane_outputs_ + slab(unit).out_offset; }

int64_t PlaneWork::output_end(int64_t unit) const { return output_begin(unit) + slab(unit).geometry.out_size(); }

int64_t PlaneWork::batch_end(int64_t first, int64_t elements) const {
    const int64_t begin = output_begin(first);
    int64_t last = first + 1;
    while (last < units() && output_end(last) - begin <= elements) ++last;
    return last;
}

int resolve_threads(int threads) {
    if (threads > 0) return threads;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int threads_for(const PlaneGeometry& g, int64_t planes, int threads) {
    const int64_t elements = planes * (g.in_size() + g.out_size());
    return static_cast<int>(std::clamp<int64_t>(elements / kMinElementsPerThread, 1, resolve_threads(threads)));
}

void parallel_parts(int64_t count, int threads, const std::function<void(int, int64_t, int64_t)>& fn) {
    const int64_t workers = std::clamp<int64_t>(resolve_threads(threads), 1, std::max<int64_t>(count, 1));
    const int64_t chunk = count / workers, extra = count % workers;
    auto range = [&](int part) {
        const int64_t begin = part * chunk + std::min<int64_t>(part, extra);
        fn(part, begin, begin + chunk + (part < extra ? 1 : 0));
    };
    WorkerPool::shared().run(static_cast<int>(workers), range);
}

}  // namespace irlint::kernels
