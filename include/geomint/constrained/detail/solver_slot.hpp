// A stepper's per-System workspace, type-erased: steppers are not templated on the system (the
// system is passed per call, as in odeint), so the workspace for a system type is created on
// the first step with that type and kept until a step with another type. Copying a stepper
// clones the workspace; the clone starts afresh (no cache is shared between steppers).
#pragma once

#include <memory>
#include <utility>

namespace geomint {
namespace detail {

/// Base of every type-erased workspace.
struct erased_workspace {
  virtual ~erased_workspace() = default;
  virtual std::unique_ptr<erased_workspace> clone() const = 0;
  virtual const void* type() const = 0;
};

/// A unique address per type, without RTTI.
template <class T>
const void* workspace_type_id() {
  static const char id = 0;
  return &id;
}

/// Implements clone() and type() for a workspace class W that has a `forget()` member
/// (drops caches that must not survive a copy).
template <class W>
struct workspace_base : erased_workspace {
  std::unique_ptr<erased_workspace> clone() const override {
    auto copy = std::make_unique<W>(static_cast<const W&>(*this));
    copy->forget();
    return copy;
  }
  const void* type() const override { return workspace_type_id<W>(); }
};

class solver_slot {
 public:
  solver_slot() = default;
  solver_slot(const solver_slot& other) : p_(other.p_ ? other.p_->clone() : nullptr) {}
  solver_slot(solver_slot&&) noexcept = default;
  solver_slot& operator=(const solver_slot& other) {
    if (this != &other) p_ = other.p_ ? other.p_->clone() : nullptr;
    return *this;
  }
  solver_slot& operator=(solver_slot&&) noexcept = default;

  /// The workspace of type W, created from args if the slot holds none or another type.
  template <class W, class... Args>
  W& get(Args&&... args) {
    if (!p_ || p_->type() != workspace_type_id<W>()) p_ = std::make_unique<W>(std::forward<Args>(args)...);
    return static_cast<W&>(*p_);
  }
  void reset() { p_.reset(); }

 private:
  std::unique_ptr<erased_workspace> p_;
};

}  // namespace detail
}  // namespace geomint
