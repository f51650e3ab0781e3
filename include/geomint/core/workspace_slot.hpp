// A stepper's per-system workspace, type-erased. Steppers are not templated on the system (it
// is passed per call, as in odeint), so the workspace for a system type is created on the first
// step with that type and kept until a step with another type. A copy of the slot holds a copy
// of the workspace that has forgotten its caches (W::forget()): copies of a stepper start
// afresh and share nothing.
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

class workspace_slot {
 public:
  workspace_slot() = default;
  workspace_slot(const workspace_slot& other) : p_(other.p_ ? other.p_->fresh_copy() : nullptr) {}
  workspace_slot(workspace_slot&&) noexcept = default;
  workspace_slot& operator=(const workspace_slot& other) {
    if (this != &other) p_ = other.p_ ? other.p_->fresh_copy() : nullptr;
    return *this;
  }
  workspace_slot& operator=(workspace_slot&&) noexcept = default;

  /// The workspace of type W; if the slot holds none or another type, W is created by make().
  template <class W, class Make>
  W& get(Make&& make) {
    if (!p_ || p_->type() != detail::type_id<W>()) p_ = std::make_unique<holder<W>>(make());
    return static_cast<holder<W>&>(*p_).w;
  }
  /// The workspace of type W if the slot holds one, else null.
  template <class W>
  W* find() {
    return p_ && p_->type() == detail::type_id<W>() ? &static_cast<holder<W>&>(*p_).w : nullptr;
  }
  void reset() { p_.reset(); }

 private:
  struct holder_base {
    virtual ~holder_base() = default;
    virtual std::unique_ptr<holder_base> fresh_copy() const = 0;
    virtual const void* type() const = 0;
  };
  template <class W>
  struct holder final : holder_base {
    explicit holder(W&& w_) : w(std::move(w_)) {}
    std::unique_ptr<holder_base> fresh_copy() const override {
      auto copy = std::make_unique<holder>(W(w));
      copy->w.forget();
      return copy;
    }
    const void* type() const override { return detail::type_id<W>(); }
    W w;
  };
  std::unique_ptr<holder_base> p_;
};

}  // namespace geomint
