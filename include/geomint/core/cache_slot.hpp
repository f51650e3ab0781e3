// A stepper's per-system cache, type-erased. Steppers are not templated on the system (it is
// passed per call, as in odeint), so the cache for a system type is created on the first step
// with that type and kept until a step with another type. A copy of the slot holds a copy of the
// cache; the core never lets a copy continue the original's last step (its record is not
// copied), so the copy's next step is a fresh start and shares nothing.
#pragma once

#include <memory>
#include <utility>

namespace geomint {
namespace detail {

/// A unique address per type, without RTTI.
template <class T>
const void* type_id() {
  static const char id = 0;
  return &id;
}

}  // namespace detail

class cache_slot {
 public:
  cache_slot() = default;
  cache_slot(const cache_slot& other) : p_(other.p_ ? other.p_->copy() : nullptr) {}
  cache_slot(cache_slot&&) noexcept = default;
  cache_slot& operator=(const cache_slot& other) {
    if (this != &other) p_ = other.p_ ? other.p_->copy() : nullptr;
    return *this;
  }
  cache_slot& operator=(cache_slot&&) noexcept = default;

  /// The cache of type C; if the slot holds none or another type, C is created by make().
  /// `created` tells whether it was.
  template <class C, class Make>
  C& get(Make&& make, bool& created) {
    created = !p_ || p_->type != detail::type_id<C>();
    if (created) p_ = std::make_unique<holder<C>>(make());
    return static_cast<holder<C>&>(*p_).c;
  }
  /// The cache of type C if the slot holds one, else null.
  template <class C>
  C* find() {
    return p_ && p_->type == detail::type_id<C>() ? &static_cast<holder<C>&>(*p_).c : nullptr;
  }
  void reset() { p_.reset(); }

 private:
  struct holder_base {
    explicit holder_base(const void* type_) : type(type_) {}
    virtual ~holder_base() = default;
    virtual std::unique_ptr<holder_base> copy() const = 0;
    const void* type;  // the held cache's type_id: a load per step, not a virtual call
  };
  template <class C>
  struct holder final : holder_base {
    explicit holder(C&& c_) : holder_base(detail::type_id<C>()), c(std::move(c_)) {}
    std::unique_ptr<holder_base> copy() const override { return std::make_unique<holder>(C(c)); }
    C c;
  };
  std::unique_ptr<holder_base> p_;
};

}  // namespace geomint
