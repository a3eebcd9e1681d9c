#pragma once
// int64 arithmetic on values read from a file, written as the formula it computes: a result that int64
// cannot hold (or a division by zero) makes the value invalid, and every value computed from an invalid one
// is invalid too, so a formula is checked once, at its end.

#include <cstdint>
#include <limits>
#include <optional>

namespace irlint {

class CheckedInt {
public:
    constexpr CheckedInt(int64_t v) : value_(v) {}  // NOLINT: implicit, so that formulas read as formulas

    static constexpr CheckedInt invalid() {
        CheckedInt c(0);
        c.valid_ = false;
        return c;
    }

    constexpr bool valid() const { return valid_; }
    constexpr std::optional<int64_t> get() const { return valid_ ? std::optional(value_) : std::nullopt; }

    friend constexpr CheckedInt operator+(CheckedInt a, CheckedInt b) {
        int64_t r = 0;
        if (!a.valid_ || !b.valid_ || __builtin_add_overflow(a.value_, b.value_, &r)) return invalid();
        return r;
    }
    friend constexpr CheckedInt operator-(CheckedInt a, CheckedInt b) {
        int64_t r = 0;
        if (!a.valid_ || !b.valid_ || __builtin_sub_overflow(a.value_, b.value_, &r)) return invalid();
        return r;
    }
    friend constexpr CheckedInt operator*(CheckedInt a, CheckedInt b) {
        int64_t r = 0;
        if (!a.valid_ || !b.valid_ || __builtin_mul_overflow(a.value_, b.value_, &r)) return invalid();
        return r;
    }
    // Truncates toward zero, as C++ does.
    friend constexpr CheckedInt operator/(CheckedInt a, CheckedInt b) {
        if (!divisible(a, b)) return invalid();
        return a.value_ / b.value_;
    }
    friend constexpr CheckedInt operator%(CheckedInt a, CheckedInt b) {
        if (!divisible(a, b)) return invalid();
        return a.value_ % b.value_;
    }

private:
    static constexpr bool divisible(CheckedInt a, CheckedInt b) {
        return a.valid_ && b.valid_ && b.value_ != 0 &&
               !(a.value_ == std::numeric_limits<int64_t>::min() && b.value_ == -1);
    }

    int64_t value_;
    bool valid_ = true;
};

}  // namespace irlint
