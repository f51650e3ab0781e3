// diagnostics::check_algebra<A>(): what a Lie algebra type promises, verified on numbers.
//
// The compiler checks that an algebra has the members of the concept (lie/algebra_concept.hpp);
// nothing checks that they are consistent, and an inconsistent algebra runs silently with wrong
// results (a so(3) with the textbook sign bracket(u, v) = u × v takes RKMK-RK4 from order 4 to
// order 2; GL2, which never brackets, does not notice). Run this once on a new algebra:
//
//   const auto report = geomint::diagnostics::check_algebra(my_algebra{});
//   std::cout << report.summary();          // one line per property: held / VIOLATED, figures
//   geomint::diagnostics::require_valid_algebra(my_algebra{});  // or: std::invalid_argument
//
// On random elements (seeded: the same numbers every run) it verifies, each as one property:
//   shapes               every operation returns d-vectors, d × d operators, n × n matrices
//   antisymmetry         [u, v] = −[v, u]
//   jacobi               [u, [v, w]] + [v, [w, u]] + [w, [u, v]] = 0
//   sign_convention      hat([u, v]) = hat(v) hat(u) − hat(u) hat(v)     (geomint's sign, algebra.hpp)
//   hat_vee              vee(hat(v)) = v and hat(vee(X)) = X on X = hat(v)
//   ad                   ad(u) v = [u, v]
//   ad_star              ⟨ad*_u y, e_j⟩ = ⟨y, [u, e_j]⟩ for every basis vector e_j
//   ad_star_operator     ad_star(u) = ad(u)ᵀ and ad_star(u) y = ad_star(u, y)
//   poisson_tensor       J(y) σ = −ad*_σ y                               (Engø–Faltinsen Lemma 2)
//   exp                  exp(σ) = e^{hat σ} (a reference matrix exponential)
//   adjoint_conjugation  hat(Ad_g ξ) = g⁻¹ hat(ξ) g, g = exp(σ)
//   adjoint_exp          Ad_{exp σ} = e^{ad σ}
//   coadjoint            Ad_gᵀ coadjoint(g, y) = y, i.e. coadjoint(g, ·) = Ad_g⁻ᵀ
//   coadjoint_generator  coadjoint(exp σ, y) = e^{−ad*_σ} y (the series of the algebra's ad*):
//                        the coadjoint orbit is the one the flow ẏ = −ad*_{∇H(y)} y = J(y)∇H(y)
//                        moves along; with ad_star, the bracket's sign seen from the group (so3:
//                        the free rigid body reads ẏ = y × I⁻¹y)
//   exp_coadjoint        exp_coadjoint(σ, y) = coadjoint(exp σ, y)        (4.22)
//   dexp_inv             dexp_σ(dexp⁻¹_σ v) = v; an algebra's own dexp_inv equals the Bernoulli
//                        series (4.19) for every truncation
//   dexp_inv_action      d/dt exp_coadjoint(σ + t dexp⁻¹_σ v, y)|₀ = −ad*_v exp_coadjoint(σ, y):
//                        what RKMK in exp coordinates relies on (Theorem 1), by finite differences
//   cayley               cayley(σ) = (1 − hat σ/2)⁻¹ (1 + hat σ/2)          (has_cayley only)
//   cayley_coadjoint     cayley_coadjoint(σ, y) = coadjoint(cayley σ, y)   (4.23)
//   dcay_inv             dcay_inv(σ, v, 0) = v, dcay_inv(σ, v, 1) = v − ½[σ, v], and
//                        d/dt cayley_coadjoint(σ + t dcay⁻¹_σ v, y)|₀ = −ad*_v cayley_coadjoint(σ, y)
//   casimir_kernel       J(y)ᵀ ∇C(y) = 0 for every Casimir (∇C by finite differences)
//   casimir_invariance   C(coadjoint(exp σ, y)) = C(y)
//
// TOLERANCES. Each identity L = R is held when ‖L − R‖_max ≤ τ M, where M bounds the magnitudes
// of the terms summed to form L and R (Higham's bound |fl(Σ xᵢ) − Σ xᵢ| ≤ γ_m Σ|xᵢ|) and
// τ = 32 (d + n) ε: a sum of up to d terms (a structure-constant expansion) or n terms (an entry
// of a product in the n × n realization), chained a few times, with a factor of safety. With
// β = max |C_ij^k| (the largest structure constant, from brackets of basis vectors) the entries
// of [u, v] are bounded by B(u, v) = β ‖u‖₁ ‖v‖₁; η = max |hat(e_i)| bounds the realization;
// σ is scaled so that ρ = max(‖hat σ‖∞, ‖ad σ‖∞, ‖ad σ‖₁) ∈ {0.05, 0.5, 1.2} (inside dexp⁻¹'s
// radius 2π), so that the entries of exp(±hat σ), Ad_{exp(±σ)} and of the series are bounded by
// e^ρ and products of two of them by G = e^{2ρ}. Finite differences (Richardson-extrapolated
// central differences) add their truncation error, bounded relative to the derivative, and
// their rounding, ~τ/(step). The report gives, for each property, the worst sample's residual
// and its tolerance. A broken algebra (a flipped sign, a wrong ad*, a bracket that is not
// antisymmetric or violates Jacobi) has residuals of the size of the terms themselves, ~10¹⁰
// times the tolerance.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#if __has_include(<unsupported/Eigen/MatrixFunctions>)
#include <unsupported/Eigen/MatrixFunctions>
#define GEOMINT_CHECK_ALGEBRA_EIGEN_EXPM 1
#else
#define GEOMINT_CHECK_ALGEBRA_EIGEN_EXPM 0
#endif

#include "geomint/lie/algebra.hpp"
#include "geomint/lie/algebra_concept.hpp"

namespace geomint {
namespace diagnostics {

struct algebra_check_options {
  /// The random elements' seed (mt19937_64, mapped to [−1, 1] without std's distributions, so
  /// the numbers are the same with every standard library).
  std::uint64_t seed = 20240601;
  /// Random samples per property (each with its own u, v, w, y, σ).
  int samples = 6;
};

/// One property of an algebra.
struct algebra_property {
  std::string name;       ///< e.g. "sign_convention"
  std::string statement;  ///< the identity checked
  bool applies = true;    ///< false: not for this algebra (Cayley members without has_cayley)
  bool held = true;
  double residual = 0;   ///< the worst sample's ‖L − R‖_max (worst relative to its tolerance)
  double tolerance = 0;  ///< that sample's tolerance τ M
  int samples = 0;       ///< samples compared
  std::string note;      ///< what went wrong besides a residual (an exception, a wrong size)
};

/// What check_algebra found.
struct algebra_report {
  std::string algebra;  ///< the algebra's name()
  int dimension = 0;    ///< dim()
  std::vector<algebra_property> properties;

  /// Every applicable property held.
  bool valid() const {
    for (const auto& p : properties)
      if (p.applies && !p.held) return false;
    return true;
  }
  /// The property of that name; std::out_of_range if there is none.
  const algebra_property& operator[](const std::string& name) const {
    for (const auto& p : properties)
      if (p.name == name) return p;
    throw std::out_of_range("geomint: check_algebra has no property named " + name);
  }
  /// Whether a property of that name was checked and held.
  bool held(const std::string& name) const {
    for (const auto& p : properties)
      if (p.name == name) return p.applies && p.held;
    return false;
  }
  /// The names of the violated properties.
  std::vector<std::string> violated() const {
    std::vector<std::string> v;
    for (const auto& p : properties)
      if (p.applies && !p.held) v.push_back(p.name);
    return v;
  }
  /// One line per property: held / VIOLATED / n.a., the worst residual against its tolerance.
  std::string summary() const {
    std::ostringstream s;
    const auto bad = violated();
    s << "geomint::diagnostics::check_algebra: " << algebra << " (dimension " << dimension << "): "
      << (bad.empty() ? "every property held" : std::to_string(bad.size()) + " propert" +
                                                    (bad.size() == 1 ? "y" : "ies") + " VIOLATED")
      << "\n";
    s.precision(2);
    for (const auto& p : properties) {
      s << "  " << (!p.applies ? "n.a.    " : p.held ? "held    " : "VIOLATED") << "  " << p.name;
      for (std::size_t k = p.name.size(); k < 20; ++k) s << ' ';
      s << "  " << p.statement;
      if (p.applies && p.samples > 0)
        s << "   [worst " << std::scientific << p.residual << (p.held ? " <= " : " > ") << "tol " << p.tolerance
          << std::defaultfloat << ", " << p.samples << " samples]";
      if (!p.note.empty()) s << "   (" << p.note << ")";
      s << "\n";
    }
    return s.str();
  }
};

namespace check_algebra_detail {

constexpr double eps = std::numeric_limits<double>::epsilon();

/// Uniform in [−1, 1] from mt19937_64's 53 high bits (fully specified, unlike std's distributions).
class uniform_source {
 public:
  explicit uniform_source(std::uint64_t seed) : gen_(seed) {}
  double next() { return static_cast<double>(gen_() >> 11) * (2.0 / 9007199254740992.0) - 1; }

 private:
  std::mt19937_64 gen_;
};

template <class M>
double amax(const M& m) {
  return m.size() == 0 ? 0.0 : static_cast<double>(m.cwiseAbs().maxCoeff());
}
template <class V>
double l1(const V& v) {
  return v.size() == 0 ? 0.0 : static_cast<double>(v.cwiseAbs().sum());
}
/// ‖m‖∞ (the largest row sum of |m|) and ‖m‖₁ (column sum).
template <class M>
double norm_inf(const M& m) {
  return m.size() == 0 ? 0.0 : static_cast<double>(m.cwiseAbs().rowwise().sum().maxCoeff());
}
template <class M>
double norm_1(const M& m) {
  return m.size() == 0 ? 0.0 : static_cast<double>(m.cwiseAbs().colwise().sum().maxCoeff());
}

/// Records one property's samples: the worst residual relative to its tolerance.
class property_recorder {
 public:
  explicit property_recorder(algebra_property& p) : p_(p) {}
  void sample(double residual, double tolerance) {
    ++p_.samples;
    const double ratio = !(residual == residual) ? std::numeric_limits<double>::infinity()
                         : residual == 0         ? 0.0
                         : tolerance > 0         ? residual / tolerance
                                                 : std::numeric_limits<double>::infinity();
    if (!(residual <= tolerance)) p_.held = false;
    if (p_.samples == 1 || ratio > worst_) {
      worst_ = ratio;
      p_.residual = residual;
      p_.tolerance = tolerance;
    }
  }

 private:
  algebra_property& p_;
  double worst_ = 0;
};

template <class A>
class checker {
  using vec = typename A::vector_type;
  using op = typename A::operator_type;
  using mat = typename A::matrix_type;
  using grp = typename A::group_type;

 public:
  checker(const A& a, const algebra_check_options& o) : a_(a), options_(o), random_(o.seed) {
    report_.algebra = A::name();
    report_.dimension = a.dim();
  }

  algebra_report run() {
    d_ = a_.dim();
    if (!shapes()) return report_;
    samples();
    property("antisymmetry", "[u, v] = -[v, u]", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const vec s = a_.bracket(u_[k], v_[k]), t = a_.bracket(v_[k], u_[k]);
        r.sample(amax(s + t), tau_ * bound(u_[k], v_[k]));
      }
    });
    property("jacobi", "[u, [v, w]] + [v, [w, u]] + [w, [u, v]] = 0", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const vec &u = u_[k], &v = v_[k], &w = w_[k];
        const vec j = a_.bracket(u, a_.bracket(v, w)) + a_.bracket(v, a_.bracket(w, u)) +
                      a_.bracket(w, a_.bracket(u, v));
        // inner brackets have ‖·‖₁ ≤ d β ‖·‖₁‖·‖₁, the outer ones multiply by β ‖·‖₁.
        r.sample(amax(j), tau_ * 3 * d_ * beta_ * beta_ * l1(u) * l1(v) * l1(w));
      }
    });
    property("sign_convention", "hat([u, v]) = hat(v) hat(u) - hat(u) hat(v)  (geomint's sign, lie/algebra.hpp)",
             [&](property_recorder& r) {
               for (int k = 0; k < n_samples(); ++k) {
                 const mat hu = a_.hat(u_[k]), hv = a_.hat(v_[k]);
                 const mat lhs = a_.hat(vec(a_.bracket(u_[k], v_[k])));
                 const mat rhs = hv * hu - hu * hv;
                 const double m = eta_ * d_ * bound(u_[k], v_[k]) + 2 * n_ * eta_ * eta_ * l1(u_[k]) * l1(v_[k]);
                 r.sample(amax(mat(lhs - rhs)), tau_ * m);
               }
             });
    property("hat_vee", "vee(hat(v)) = v, hat(vee(X)) = X for X = hat(v)", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const mat x = a_.hat(u_[k]);
        const vec back = a_.vee(x);
        r.sample(amax(vec(back - u_[k])), tau_ * l1(u_[k]));
        r.sample(amax(mat(a_.hat(back) - x)), tau_ * eta_ * l1(u_[k]));
      }
    });
    property("ad", "ad(u) v = [u, v]", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const op m = a_.ad(u_[k]);
        r.sample(amax(vec(m * v_[k] - a_.bracket(u_[k], v_[k]))), tau_ * bound(u_[k], v_[k]));
      }
    });
    property("ad_star", "<ad*_u y, e_j> = <y, [u, e_j]> for every basis vector e_j", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const vec s = a_.ad_star(u_[k], y_[k]);
        vec pairing = vec::Zero(d_);
        for (int j = 0; j < d_; ++j) pairing(j) = y_[k].dot(vec(a_.bracket(u_[k], unit(j))));
        r.sample(amax(vec(s - pairing)), tau_ * beta_ * l1(u_[k]) * l1(y_[k]));
      }
    });
    property("ad_star_operator", "ad_star(u) = ad(u)^T, ad_star(u) y = ad_star(u, y)", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const op s = a_.ad_star(u_[k]), m = a_.ad(u_[k]);
        r.sample(amax(op(s - m.transpose())), tau_ * beta_ * l1(u_[k]));
        r.sample(amax(vec(s * y_[k] - a_.ad_star(u_[k], y_[k]))), tau_ * beta_ * l1(u_[k]) * l1(y_[k]));
      }
    });
    property("poisson_tensor", "J(y) s = -ad*_s y  (Engo-Faltinsen Lemma 2)", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const op j = a_.poisson_tensor(y_[k]);
        r.sample(amax(vec(j * v_[k] + a_.ad_star(v_[k], y_[k]))), tau_ * beta_ * l1(v_[k]) * l1(y_[k]));
      }
    });
    property("exp", "exp(s) = e^{hat s}  (reference matrix exponential)", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const mat g = a_.exp(sigma_[k]);
        const mat ref = reference_exp(mat(a_.hat(sigma_[k])));
        r.sample(amax(mat(g - ref)), tau_ * group_bound(k));
      }
    });
    property("adjoint_conjugation", "hat(Ad_g x) = g^-1 hat(x) g for g = exp(s)", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const grp g = a_.exp(sigma_[k]);
        const grp gi = Eigen::PartialPivLU<grp>(g).inverse();
        const op ad_g = a_.adjoint(g);
        const mat lhs = a_.hat(vec(ad_g * v_[k]));
        const mat rhs = gi * a_.hat(v_[k]) * g;
        r.sample(amax(mat(lhs - rhs)), tau_ * eta_ * l1(v_[k]) * (n_ * n_ * group_bound(k) + d_ * group_bound(k)));
      }
    });
    property("adjoint_exp", "Ad_{exp s} = e^{ad s}", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const op lhs = a_.adjoint(grp(a_.exp(sigma_[k])));
        const op rhs = reference_exp(op(a_.ad(sigma_[k])));
        r.sample(amax(op(lhs - rhs)), tau_ * (n_ + d_) * group_bound(k));
      }
    });
    property("coadjoint", "Ad_g^T coadjoint(g, y) = y, i.e. coadjoint(g, .) = Ad_g^-T", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const grp g = a_.exp(sigma_[k]);
        const vec c = a_.coadjoint(g, y_[k]);
        const op ad_g = a_.adjoint(g);
        r.sample(amax(vec(ad_g.transpose() * c - y_[k])), tau_ * d_ * group_bound(k) * l1(y_[k]));
      }
    });
    property("coadjoint_generator",
             "coadjoint(exp s, y) = e^{-ad*_s} y: the orbit of the flow dy/dt = -ad*_{grad H} y "
             "(so3: the rigid body reads dy/dt = y x I^-1 y)",
             [&](property_recorder& r) {
               for (int k = 0; k < n_samples(); ++k) {
                 const vec c = a_.coadjoint(grp(a_.exp(sigma_[k])), y_[k]);
                 vec term = y_[k], sum = y_[k];
                 for (int j = 1; j < 100; ++j) {
                   term = -a_.ad_star(sigma_[k], term) / j;
                   sum += term;
                   if (amax(term) <= eps / 4 * amax(sum)) break;
                 }
                 r.sample(amax(vec(c - sum)), tau_ * d_ * group_bound(k) * l1(y_[k]));
               }
             });
    property("exp_coadjoint", "exp_coadjoint(s, y) = coadjoint(exp s, y)  (4.22)", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const vec c = a_.coadjoint(grp(a_.exp(sigma_[k])), y_[k]);
        r.sample(amax(vec(a_.exp_coadjoint(sigma_[k], y_[k]) - c)), tau_ * d_ * group_bound(k) * l1(y_[k]));
      }
    });
    property("dexp_inv", "dexp_s(dexp^-1_s v) = v; an own dexp_inv = the Bernoulli series (4.19)",
             [&](property_recorder& r) {
               for (int k = 0; k < n_samples(); ++k) {
                 const vec& s = sigma_[k];
                 const vec x = geomint::dexp_inv(a_, s, v_[k], full_series);
                 // the two series' coefficients sum to at most e^ρ and 1 + ρ/2 + … ≤ G.
                 r.sample(amax(vec(geomint::dexp(a_, s, x, full_series) - v_[k])),
                          tau_ * d_ * group_bound(k) * l1(v_[k]));
                 if constexpr (geomint::detail::has_own_dexp_inv<A>::value) {
                   for (int q : {0, 1, 2, 3, 4, full_series}) {
                     const vec own = a_.dexp_inv(s, v_[k], q);
                     const vec series = q == 0 ? vec(v_[k]) : geomint::dexp_inv_series(a_, s, v_[k], q);
                     r.sample(amax(vec(own - series)), tau_ * d_ * group_bound(k) * l1(v_[k]));
                   }
                 }
               }
             });
    property("dexp_inv_action",
             "d/dt exp_coadjoint(s + t dexp^-1_s v, y) = -ad*_v exp_coadjoint(s, y)  (RKMK, Theorem 1)",
             [&](property_recorder& r) {
               for (int k = 0; k < n_samples(); ++k) {
                 const vec delta = geomint::dexp_inv(a_, sigma_[k], v_[k], full_series);
                 derivative_sample(r, k, delta, [&](const vec& s) { return vec(a_.exp_coadjoint(s, y_[k])); });
               }
             });
    cayley_properties();
    casimir_properties();
    return report_;
  }

 private:
  int n_samples() const { return static_cast<int>(u_.size()); }
  vec unit(int j) const { return vec::Unit(d_, j); }
  vec random() {
    vec x = vec::Zero(d_);
    for (int i = 0; i < d_; ++i) x(i) = random_.next();
    return x;
  }
  /// Entries of [u, v] are at most β ‖u‖₁ ‖v‖₁.
  double bound(const vec& u, const vec& v) const { return beta_ * l1(u) * l1(v); }
  /// G = e^{2ρ} for sample k: products of two of exp(±hat σ), Ad_{exp(±σ)} and the series.
  double group_bound(int k) const { return std::exp(2 * rho_[k]); }

  template <class M>
  static M reference_exp(const M& x) {
#if GEOMINT_CHECK_ALGEBRA_EIGEN_EXPM
    return M(x.exp());
#else
    return M(M::Identity(x.rows(), x.cols()) + geomint::detail::expm1(x));
#endif
  }

  /// Adds a property, evaluated by body(recorder); an exception is a violation, its message the note.
  template <class Body>
  void property(const char* name, const char* statement, Body&& body, bool applies = true) {
    algebra_property p;
    p.name = name;
    p.statement = statement;
    p.applies = applies;
    if (applies) {
      property_recorder r(p);
      try {
        body(r);
      } catch (const std::exception& e) {
        p.held = false;
        p.note = std::string("threw: ") + e.what();
      }
    }
    report_.properties.push_back(std::move(p));
  }

  /// The sizes of everything the operations return; the other properties need them (Eigen
  /// would stop at the first mismatch).
  bool shapes() {
    bool ok = true;
    algebra_property p;
    p.name = "shapes";
    p.statement = "d-vectors, d x d operators, square realizations, casimir_count Casimirs";
    std::string what;
    auto expect = [&](bool c, const char* s) {
      if (!c) {
        ok = false;
        what += what.empty() ? s : std::string("; ") + s;
      }
    };
    try {
      expect(d_ >= 1, "dim() >= 1");
      if constexpr (A::dimension != dynamic) expect(d_ == A::dimension, "dim() == dimension");
      if (ok) {
        const vec u = vec::Constant(d_, 0.25), y = vec::Constant(d_, 0.5);
        expect(a_.bracket(u, y).size() == d_, "bracket(u, v) has dim() entries");
        const op m = a_.ad(u);
        expect(m.rows() == d_ && m.cols() == d_, "ad(u) is d x d");
        expect(a_.ad_star(u, y).size() == d_, "ad_star(u, y) has dim() entries");
        const op ms = a_.ad_star(u);
        expect(ms.rows() == d_ && ms.cols() == d_, "ad_star(u) is d x d");
        const op j = a_.poisson_tensor(y);
        expect(j.rows() == d_ && j.cols() == d_, "poisson_tensor(y) is d x d");
        const mat h = a_.hat(u);
        expect(h.rows() == h.cols() && h.rows() >= 1, "hat(v) is square");
        n_ = static_cast<int>(h.rows());
        expect(a_.vee(h).size() == d_, "vee(X) has dim() entries");
        const grp g = a_.exp(u);
        expect(g.rows() == h.rows() && g.cols() == h.cols(), "exp(s) has hat(s)'s size");
        const op ad_g = a_.adjoint(g);
        expect(ad_g.rows() == d_ && ad_g.cols() == d_, "adjoint(g) is d x d");
        expect(a_.coadjoint(g, y).size() == d_, "coadjoint(g, y) has dim() entries");
        expect(a_.exp_coadjoint(u, y).size() == d_, "exp_coadjoint(s, y) has dim() entries");
        expect(a_.casimirs(y).size() == A::casimir_count, "casimirs(y) has casimir_count entries");
        expect(a_.casimir_scales(y).size() == A::casimir_count, "casimir_scales(y) has casimir_count entries");
        if constexpr (A::has_cayley) {
          const grp c = a_.cayley(u);
          expect(c.rows() == h.rows() && c.cols() == h.cols(), "cayley(s) has hat(s)'s size");
          expect(a_.cayley_coadjoint(u, y).size() == d_, "cayley_coadjoint(s, y) has dim() entries");
          for (int q = 0; q <= 2; ++q) expect(a_.dcay_inv(u, y, q).size() == d_, "dcay_inv(s, v, q) has dim() entries");
        }
      }
    } catch (const std::exception& e) {
      ok = false;
      what += std::string(what.empty() ? "" : "; ") + "threw: " + e.what();
    }
    p.held = ok;
    p.note = ok ? "" : "wrong: " + what + " (nothing else checked)";
    report_.properties.push_back(std::move(p));
    return ok;
  }

  /// The random elements and the magnitudes β, η, ρ.
  void samples() {
    beta_ = 0;
    for (int i = 0; i < d_; ++i)
      for (int j = 0; j < d_; ++j) beta_ = std::fmax(beta_, amax(vec(a_.bracket(unit(i), unit(j)))));
    eta_ = 0;
    for (int i = 0; i < d_; ++i) eta_ = std::fmax(eta_, amax(mat(a_.hat(unit(i)))));
    tau_ = 32 * (d_ + n_) * eps;
    const double radii[] = {0.05, 0.5, 1.2};
    for (int k = 0; k < std::max(options_.samples, 1); ++k) {
      u_.push_back(random());
      v_.push_back(random());
      w_.push_back(random());
      y_.push_back(random());
      vec x = random();
      const op ad_x = a_.ad(x);
      const double size = std::fmax(norm_inf(mat(a_.hat(x))), std::fmax(norm_inf(ad_x), norm_1(ad_x)));
      const double radius = radii[k % 3];
      if (size > 0) x *= radius / size;
      const op ad_s = a_.ad(x);
      rho_.push_back(std::fmax(norm_inf(mat(a_.hat(x))), std::fmax(norm_inf(ad_s), norm_1(ad_s))));
      sigma_.push_back(x);
    }
  }

  /// One sample of d/dt act(σ + t δ)|₀ = −ad*_v act(σ): Richardson-extrapolated central
  /// differences R = (4 D(h/2) − D(h))/3, D(h) = (f(h) − f(−h))/2h, with h θ = 2e-3 for
  /// θ = max(‖hat δ‖∞, ‖ad δ‖∞, ‖ad δ‖₁), the rate at which δ moves the exponent. Its error:
  /// truncation ≤ (hθ)⁴ θ G ‖y‖₁ (the fifth derivative, O(θ⁵ G ‖y‖₁), times h⁴/30), rounding
  /// ≤ 2 τ d G ‖y‖₁ / h (f's own error over the step); plus the right side's τ β ‖v‖₁ ‖f‖₁.
  template <class Act>
  void derivative_sample(property_recorder& r, int k, const vec& delta, Act&& act) {
    const op ad_d = a_.ad(delta);
    const double theta = std::fmax(norm_inf(mat(a_.hat(delta))), std::fmax(norm_inf(ad_d), norm_1(ad_d)));
    const vec f0 = act(sigma_[k]);
    const vec target = -a_.ad_star(v_[k], f0);
    if (!(theta > 0)) {  // δ = 0 (an abelian algebra or v = 0): the derivative is 0
      r.sample(amax(target), tau_ * beta_ * l1(v_[k]) * l1(f0));
      return;
    }
    const double h = 2e-3 / theta;
    auto central = [&](double step) {
      return vec((act(vec(sigma_[k] + step * delta)) - act(vec(sigma_[k] - step * delta))) / (2 * step));
    };
    const vec richardson = (4 * central(h / 2) - central(h)) / 3;
    const double scale = group_bound(k) * l1(y_[k]);
    const double truncation = std::pow(h * theta, 4) * theta * scale;
    const double rounding = 2 * tau_ * d_ * scale / h;
    r.sample(amax(vec(richardson - target)), truncation + rounding + tau_ * beta_ * l1(v_[k]) * l1(f0));
  }

  void cayley_properties() {
    constexpr bool cay = A::has_cayley;
    if constexpr (cay) {
      property("cayley", "cayley(s) = (1 - hat s/2)^-1 (1 + hat s/2)", [&](property_recorder& r) {
        for (int k = 0; k < n_samples(); ++k) {
          const mat s = a_.hat(sigma_[k]);
          const mat one = mat::Identity(n_, n_);
          const Eigen::PartialPivLU<mat> lu(mat(one - s / 2));
          const mat ref = lu.solve(mat(one + s / 2));
          const mat inv = lu.inverse();
          // a perturbation δ of 1 − S/2 moves the result by (1 − S/2)⁻¹ δ (1 − S/2)⁻¹ (1 + S/2).
          const double m = n_ * norm_inf(inv) * norm_inf(inv) * (1 + norm_inf(s));
          r.sample(amax(mat(mat(a_.cayley(sigma_[k])) - ref)), tau_ * m);
        }
      });
      property("cayley_coadjoint", "cayley_coadjoint(s, y) = coadjoint(cayley s, y)  (4.23)", [&](property_recorder& r) {
        for (int k = 0; k < n_samples(); ++k) {
          const grp c = a_.cayley(sigma_[k]);
          const grp ci = Eigen::PartialPivLU<grp>(c).inverse();
          const double gc = norm_inf(c) * norm_inf(ci);
          r.sample(amax(vec(a_.cayley_coadjoint(sigma_[k], y_[k]) - a_.coadjoint(c, y_[k]))),
                   tau_ * d_ * gc * gc * l1(y_[k]));
        }
      });
      property("dcay_inv",
               "dcay_inv(s, v, 0) = v, dcay_inv(s, v, 1) = v - [s, v]/2, d/dt cayley_coadjoint(s + t dcay^-1_s v, y) "
               "= -ad*_v cayley_coadjoint(s, y)",
               [&](property_recorder& r) {
                 for (int k = 0; k < n_samples(); ++k) {
                   const vec& s = sigma_[k];
                   r.sample(amax(vec(a_.dcay_inv(s, v_[k], 0) - v_[k])), tau_ * l1(v_[k]));
                   r.sample(amax(vec(a_.dcay_inv(s, v_[k], 1) - (v_[k] - a_.bracket(s, v_[k]) / 2))),
                            tau_ * (l1(v_[k]) + bound(s, v_[k])));
                   const vec delta = a_.dcay_inv(s, v_[k], 2);
                   derivative_sample(r, k, delta, [&](const vec& x) { return vec(a_.cayley_coadjoint(x, y_[k])); });
                 }
               });
    } else {
      property("cayley", "cayley(s) = (1 - hat s/2)^-1 (1 + hat s/2)", [](property_recorder&) {}, false);
      property("cayley_coadjoint", "cayley_coadjoint(s, y) = coadjoint(cayley s, y)", [](property_recorder&) {}, false);
      property("dcay_inv", "dcay^-1 consistent with cayley_coadjoint", [](property_recorder&) {}, false);
    }
  }

  void casimir_properties() {
    constexpr int c = A::casimir_count;
    property("casimir_kernel", "J(y)^T grad C(y) = 0 for every Casimir C", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const vec& y = y_[k];
        const op j = a_.poisson_tensor(y);
        const auto scales = a_.casimir_scales(y);
        // ∇C by Richardson-extrapolated central differences, step h = 1e-3 ‖y‖∞ in each
        // coordinate: the truncation error is ≤ (h/‖y‖∞)⁴ p⁵/30 ≤ 1e-8 relative for a Casimir
        // of degree p ≤ 9, the rounding ≤ 4 ε scale(C)/h (casimir_scales: C's round-off scale).
        const double h = 1e-3 * amax(y);
        Eigen::MatrixXd grad(d_, c);
        for (int i = 0; i < d_; ++i) {
          auto central = [&](double step) {
            vec p = y, m = y;
            p(i) += step;
            m(i) -= step;
            return Eigen::VectorXd((a_.casimirs(p) - a_.casimirs(m)) / (2 * step));
          };
          grad.row(i) = ((4 * central(h / 2) - central(h)) / 3).transpose();
        }
        for (int l = 0; l < c; ++l) {
          const Eigen::VectorXd g = grad.col(l);
          const Eigen::VectorXd kernel = Eigen::MatrixXd(j).transpose() * g;
          const double grad_error = 1e-8 * amax(g) + 4 * eps * std::fabs(static_cast<double>(scales(l))) / h;
          r.sample(amax(kernel), d_ * amax(j) * (grad_error + tau_ * amax(g)));
        }
      }
    }, c > 0);
    property("casimir_invariance", "C(coadjoint(exp s, y)) = C(y) for every Casimir C", [&](property_recorder& r) {
      for (int k = 0; k < n_samples(); ++k) {
        const vec moved = a_.coadjoint(grp(a_.exp(sigma_[k])), y_[k]);
        const auto before = a_.casimirs(y_[k]);
        const auto after = a_.casimirs(moved);
        const auto scales = a_.casimir_scales(y_[k]);
        // coadjoint moves y by ~τ d G ‖y‖₁ relative to ‖y‖; a Casimir of degree p ≤ d changes by
        // p times that relative error of its scale.
        for (int l = 0; l < c; ++l)
          r.sample(std::fabs(static_cast<double>(after(l) - before(l))),
                   tau_ * d_ * d_ * group_bound(k) * std::fabs(static_cast<double>(scales(l))) * l1(y_[k]) /
                       std::fmax(amax(y_[k]), std::numeric_limits<double>::min()));
      }
    }, c > 0);
  }

  const A& a_;
  algebra_check_options options_;
  uniform_source random_;
  algebra_report report_;
  int d_ = 0, n_ = 1;
  double beta_ = 0, eta_ = 0, tau_ = 0;
  std::vector<vec> u_, v_, w_, y_, sigma_;
  std::vector<double> rho_;
};

}  // namespace check_algebra_detail

/// Verifies on random elements (options.seed) that an algebra's members are consistent with each
/// other and with geomint's conventions (lie/algebra.hpp); see the header comment for the list.
/// Run it once on a new algebra; the tests run it on every shipped one.
template <class A>
algebra_report check_algebra(const A& a = A{}, const algebra_check_options& options = {}) {
  static_assert(sizeof(geomint::detail::lie_algebra_checked<A>) != 0);  // the members, at compile time
  if constexpr (!is_lie_algebra_v<A>) {
    return algebra_report{};
  } else {
    return check_algebra_detail::checker<A>(a, options).run();
  }
}

/// check_algebra, throwing std::invalid_argument with the summary if a property is violated.
template <class A>
void require_valid_algebra(const A& a = A{}, const algebra_check_options& options = {}) {
  const algebra_report report = check_algebra(a, options);
  if (!report.valid()) throw std::invalid_argument(report.summary());
}

}  // namespace diagnostics
}  // namespace geomint
