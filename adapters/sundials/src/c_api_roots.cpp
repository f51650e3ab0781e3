// The constrained lifecycle's dense output and root finding (geomint_sundials.h): GeomintGetDky,
// GeomintRootInit, GeomintSetRootDirection, GeomintGetRootInfo, and the root search
// GeomintEvolve runs after every step (c_root_search.hpp). The steps never change for them.
#include <cmath>
#include <cstdio>
#include <string>

#include "c_memory.hpp"

namespace geomint::sundials::detail {

c_interpolant& memory::extension() {
  if (!interpolant) {
    const method_info* info = find_method(method);
    interpolant = ensure_model().make_interpolant(info ? info->order : 2);
  }
  if (!extension_current) {
    interpolant->begin_step(t_prev, q_prev.data(), p_prev.data(), t, N_VGetArrayPointer(q.get()),
                            N_VGetArrayPointer(p.get()));
    extension_current = true;
  }
  return *interpolant;
}

namespace {

/// g(t, x(t)) into out, x on the last step's extension (the grid state at the current time);
/// x is left in q_root, p_root.
void evaluate_roots(memory& m, double t, std::vector<double>& out) {
  if (t == m.t) {
    m.q_root = data(m.q);
    m.p_root = data(m.p);
  } else {
    m.extension().evaluate(t, 0, m.q_root.data(), m.p_root.data());
  }
  ++m.clock.root_evaluations;
  const int code = m.root_fn(t, m.q_root_view.get(), m.p_root_view.get(), out.data(), m.problem.user_data);
  if (code != 0) throw callback_error(code, "root");
}

}  // namespace

void start_roots(memory& m) {
  const long n = m.problem.n;
  if (m.q_root.size() != n) {
    m.q_root.resize(n);
    m.p_root.resize(n);
    m.q_root_view.reset(N_VMake_Serial(n, m.q_root.data(), m.ctx));
    m.p_root_view.reset(N_VMake_Serial(n, m.p_root.data(), m.ctx));
    if (!m.q_root_view || !m.p_root_view) throw std::bad_alloc();
  }
  m.roots.begin(m.t, [&](double t, std::vector<double>& out) { evaluate_roots(m, t, out); });
}

int locate_roots(memory& m, N_Vector q, N_Vector p, sunrealtype* tret, double t_end) {
  if (!m.roots.started()) start_roots(m);
  const double root = m.roots.next(m.t_prev, t_end, [&](double t, std::vector<double>& out) { evaluate_roots(m, t, out); });
  if (std::isnan(root)) return GEOMINT_SUCCESS;
  data(q) = m.q_root;  // the state at the root (evaluated last)
  data(p) = m.p_root;
  *tret = root;
  return GEOMINT_ROOT_RETURN;
}

}  // namespace geomint::sundials::detail

using namespace geomint::sundials::detail;

extern "C" {

int GeomintGetDky(void* mem, sunrealtype t, int k, N_Vector dky_q, N_Vector dky_p) {
  return guarded(mem, __func__, [&](memory& m) {
    const long n = m.problem.n;
    if (!serial(dky_q, n) || !serial(dky_p, n))
      return m.ill_input("dky_q and dky_p must be serial N_Vectors of length n = " + std::to_string(n));
    if (const int flag = m.check_dky(t, k, m.have_step, m.t_prev, m.t)) return flag;
    m.extension().evaluate(t, k, N_VGetArrayPointer(dky_q), N_VGetArrayPointer(dky_p));
    return m.succeed();
  });
}

int GeomintRootInit(void* mem, int nrtfn, GeomintRootFn g) {
  return guarded(mem, __func__, [&](memory& m) {
    if (nrtfn < 0) return m.ill_input("nrtfn must be >= 0");
    if (nrtfn > 0 && !g) return m.ill_input("the root function must not be NULL when nrtfn > 0");
    m.root_fn = nrtfn > 0 ? g : nullptr;
    m.roots.configure(nrtfn);
    return m.succeed();
  });
}

int GeomintSetRootDirection(void* mem, const int* rootdir) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!m.root_fn) return m.ill_input("call GeomintRootInit with nrtfn > 0 first");
    if (!rootdir) return m.ill_input("rootdir must not be NULL");
    if (!m.roots.set_direction(rootdir)) return m.ill_input("rootdir[i] must be -1, 0 or 1");
    return m.succeed();
  });
}

int GeomintGetRootInfo(void* mem, int* rootsfound) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!m.root_fn) return m.ill_input("call GeomintRootInit with nrtfn > 0 first");
    if (!rootsfound) return m.ill_input("rootsfound must not be NULL");
    std::copy(m.roots.found().begin(), m.roots.found().end(), rootsfound);
    return m.succeed();
  });
}

}  // extern "C"
