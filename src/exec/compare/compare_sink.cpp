#include "exec/compare/compare_sink.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace irlint {

namespace {

size_t element_bytes(ElementType t) { return static_cast<size_t>(element_type_bits(t) / 8); }

}  // namespace

ComparingSink::ComparingSink(std::vector<Output> outputs, int64_t batch_elements_per_thread,
                             int64_t batch_elements_on_one_thread)
    : outputs_(std::move(outputs)),
      batch_elements_per_thread_(batch_elements_per_thread),
      batch_elements_on_one_thread_(batch_elements_on_one_thread) {
    total_ = outputs_.empty() ? 0 : static_cast<int64_t>(checked_element_count(outputs_[0].spec.shape, 8).value_or(0));
    for (const Output& o : outputs_)
        comparisons_.push_back(o.expected ? std::make_unique<PiecewiseComparison>(*o.expected, o.tolerance) : nullptr);
}

int64_t ComparingSink::batch_elements(int threads) {
    batch_elements_ = threads > 1 ? batch_elements_per_thread_ * threads : batch_elements_on_one_thread_;
    return batch_elements_;
}

bool ComparingSink::conclusive() const {
    return std::all_of(comparisons_.begin(), comparisons_.end(),
                       [](const auto& c) { return !c || c->conclusive(); });
}

// Buffers that hold `elements` from begin_ on, keeping what is written and not compared yet.
void ComparingSink::reserve(int64_t elements) {
    if (!buffers_.empty() && static_cast<int64_t>(buffers_[0].size()) >= elements) return;
    std::vector<Tensor> grown;
    for (size_t i = 0; i < outputs_.size(); ++i) {
        const ElementType type = outputs_[i].spec.type;
        grown.push_back(Tensor::uninitialized(type, {elements}));
        if (!buffers_.empty())
            std::memcpy(grown[i].mutable_bytes(), buffers_[i].bytes(),
                        static_cast<size_t>(end_ - begin_) * element_bytes(type));
    }
    buffers_ = std::move(grown);
}

kernels::OutputSink::Window ComparingSink::window(int64_t first, int64_t last) {
    // A batch's elements and what the last one left uncompared (less than a chunk): the buffer takes the
    // usual size at once, also where a unit is larger than a batch.
    const int64_t batch = std::max(batch_elements_, last - first);
    const int64_t usual = std::min(total_, batch + static_cast<int64_t>(kCompareChunk));
    reserve(std::max(last - begin_, usual));
    return {&buffers_, begin_};
}

void ComparingSink::filled(int64_t end) {
    const auto start = std::chrono::steady_clock::now();
    const int64_t chunk = static_cast<int64_t>(kCompareChunk);
    const int64_t compared = end == total_ ? end : end / chunk * chunk;
    for (size_t i = 0; i < outputs_.size(); ++i) {
        const size_t bytes = element_bytes(outputs_[i].spec.type);
        std::byte* buffer = buffers_[i].mutable_bytes();
        if (comparisons_[i] && compared > begin_)
            comparisons_[i]->add(buffer, static_cast<size_t>(begin_), static_cast<size_t>(compared - begin_));
        std::memmove(buffer, buffer + static_cast<size_t>(compared - begin_) * bytes,
                     static_cast<size_t>(end - compared) * bytes);
    }
    begin_ = compared;
    end_ = end;
    compare_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace irlint
