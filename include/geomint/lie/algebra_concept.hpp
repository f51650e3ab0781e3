// The algebra concept of lie/algebra.hpp, checked at compile time: one trait per member, and
// one static_assert that names every member a type lacks.
//
// A Lie–Poisson stepper instantiated with a type that is not an algebra reports
//
//   error: static assertion failed: geomint: this type is not a Lie algebra of THE ALGEBRA CONCEPT ...
//   ... geomint::algebra_concept::lacks<my_algebra, missing_dimension, missing_ad_star_u> ...
//
// and nothing else: the steppers take their state size from algebra_dimension (dynamic where
// `dimension` is missing) and compile no step for an incomplete algebra (check_system returns
// std::false_type, which stepper_base::do_step reads as "do not instantiate the step").
// The numbers behind the members (signs, Jacobi, the actions) are checked at run time by
// diagnostics::check_algebra (diagnostics/check_algebra.hpp).
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include <Eigen/Core>

namespace geomint {

/// The tags that name what a type lacks of the algebra concept (lie/algebra.hpp); they appear,
/// as template arguments of algebra_concept::lacks<Algebra, ...>, in the compiler's message.
namespace algebra_concept {
struct missing_dimension;                ///< static constexpr int dimension
struct missing_vector_type;              ///< using vector_type
struct missing_operator_type;            ///< using operator_type
struct missing_matrix_type;              ///< using matrix_type
struct missing_group_type;               ///< using group_type
struct missing_has_cayley;               ///< static constexpr bool has_cayley
struct missing_casimir_count;            ///< static constexpr int casimir_count
struct missing_static_name;              ///< static const char* name()
struct missing_dim;                      ///< int dim() const
struct missing_bracket_u_v;              ///< vector_type bracket(u, v) const
struct missing_ad_u;                     ///< operator_type ad(u) const
struct missing_ad_star_u_y;              ///< vector_type ad_star(u, y) const
struct missing_ad_star_u;                ///< operator_type ad_star(u) const
struct missing_poisson_tensor_y;         ///< operator_type poisson_tensor(y) const
struct missing_hat_v;                    ///< matrix_type hat(v) const
struct missing_vee_X;                    ///< vector_type vee(X) const
struct missing_exp_sigma;                ///< group_type exp(σ) const
struct missing_adjoint_g;                ///< operator_type adjoint(g) const
struct missing_coadjoint_g_y;            ///< vector_type coadjoint(g, y) const
struct missing_exp_coadjoint_sigma_y;    ///< vector_type exp_coadjoint(σ, y) const
struct missing_casimirs_y;               ///< vector<casimir_count> casimirs(y) const
struct missing_casimir_scales_y;         ///< vector<casimir_count> casimir_scales(y) const
struct missing_cayley_sigma;             ///< group_type cayley(σ) const            (has_cayley)
struct missing_cayley_coadjoint_sigma_y; ///< vector_type cayley_coadjoint(σ, y) const (has_cayley)
struct missing_dcay_inv_sigma_v_q;       ///< vector_type dcay_inv(σ, v, q) const   (has_cayley)

/// The list of missing members of Algebra (empty: a complete algebra).
template <class Algebra, class... Missing>
struct lacks {};

namespace detail {
// The argument types the member functions are tried with: the algebra's own where it declares
// them, else dynamic Eigen objects (so that a missing vector_type is reported once, not as every
// function missing too).
template <class A, class = void> struct vector_of { using type = Eigen::VectorXd; };
template <class A> struct vector_of<A, std::void_t<typename A::vector_type>> { using type = typename A::vector_type; };
template <class A, class = void> struct matrix_of { using type = Eigen::MatrixXd; };
template <class A> struct matrix_of<A, std::void_t<typename A::matrix_type>> { using type = typename A::matrix_type; };
template <class A, class = void> struct group_of { using type = Eigen::MatrixXd; };
template <class A> struct group_of<A, std::void_t<typename A::group_type>> { using type = typename A::group_type; };

template <class A> const typename vector_of<A>::type& vec();
template <class A> const typename matrix_of<A>::type& mat();
template <class A> const typename group_of<A>::type& grp();
template <class A> const A& self();

// One detector per member: Probe<A> is well-formed iff A has it.
template <class Void, template <class> class Probe, class A> struct detect : std::false_type {};
template <template <class> class Probe, class A> struct detect<std::void_t<Probe<A>>, Probe, A> : std::true_type {};

template <class A> using dimension_probe = std::integral_constant<int, A::dimension>;
template <class A> using vector_type_probe = typename A::vector_type;
template <class A> using operator_type_probe = typename A::operator_type;
template <class A> using matrix_type_probe = typename A::matrix_type;
template <class A> using group_type_probe = typename A::group_type;
template <class A> using has_cayley_probe = std::bool_constant<A::has_cayley>;
template <class A> using casimir_count_probe = std::integral_constant<int, A::casimir_count>;
template <class A> using name_probe = std::enable_if_t<std::is_convertible<decltype(A::name()), std::string>::value>;
template <class A> using dim_probe = std::enable_if_t<std::is_convertible<decltype(self<A>().dim()), int>::value>;
template <class A> using bracket_probe = decltype(self<A>().bracket(vec<A>(), vec<A>()));
template <class A> using ad_probe = decltype(self<A>().ad(vec<A>()));
template <class A> using ad_star_u_y_probe = decltype(self<A>().ad_star(vec<A>(), vec<A>()));
template <class A> using ad_star_u_probe = decltype(self<A>().ad_star(vec<A>()));
template <class A> using poisson_tensor_probe = decltype(self<A>().poisson_tensor(vec<A>()));
template <class A> using hat_probe = decltype(self<A>().hat(vec<A>()));
template <class A> using vee_probe = decltype(self<A>().vee(mat<A>()));
template <class A> using exp_probe = decltype(self<A>().exp(vec<A>()));
template <class A> using adjoint_probe = decltype(self<A>().adjoint(grp<A>()));
template <class A> using coadjoint_probe = decltype(self<A>().coadjoint(grp<A>(), vec<A>()));
template <class A> using exp_coadjoint_probe = decltype(self<A>().exp_coadjoint(vec<A>(), vec<A>()));
template <class A> using casimirs_probe = decltype(self<A>().casimirs(vec<A>()));
template <class A> using casimir_scales_probe = decltype(self<A>().casimir_scales(vec<A>()));
template <class A> using cayley_probe = decltype(self<A>().cayley(vec<A>()));
template <class A> using cayley_coadjoint_probe = decltype(self<A>().cayley_coadjoint(vec<A>(), vec<A>()));
template <class A> using dcay_inv_probe = decltype(self<A>().dcay_inv(vec<A>(), vec<A>(), 0));

template <template <class> class Probe, class A>
inline constexpr bool has = detect<void, Probe, A>::value;

/// has_cayley's value, false where it is missing (its own tag reports that).
template <class A, bool = has<has_cayley_probe, A>>
inline constexpr bool declares_cayley = false;
template <class A>
inline constexpr bool declares_cayley<A, true> = A::has_cayley;

/// A member's tag if the member is missing.
template <bool Present, class Tag>
struct item {
  static constexpr bool present = Present;
  using tag = Tag;
};
template <class List, class... Items>
struct collect {
  using type = List;
};
template <class A, class... M, class Item, class... Rest>
struct collect<lacks<A, M...>, Item, Rest...>
    : collect<std::conditional_t<Item::present, lacks<A, M...>, lacks<A, M..., typename Item::tag>>, Rest...> {};

template <class A>
using missing_members = typename collect<
    lacks<A>, item<has<dimension_probe, A>, missing_dimension>, item<has<vector_type_probe, A>, missing_vector_type>,
    item<has<operator_type_probe, A>, missing_operator_type>, item<has<matrix_type_probe, A>, missing_matrix_type>,
    item<has<group_type_probe, A>, missing_group_type>, item<has<has_cayley_probe, A>, missing_has_cayley>,
    item<has<casimir_count_probe, A>, missing_casimir_count>, item<has<name_probe, A>, missing_static_name>,
    item<has<dim_probe, A>, missing_dim>, item<has<bracket_probe, A>, missing_bracket_u_v>,
    item<has<ad_probe, A>, missing_ad_u>, item<has<ad_star_u_y_probe, A>, missing_ad_star_u_y>,
    item<has<ad_star_u_probe, A>, missing_ad_star_u>, item<has<poisson_tensor_probe, A>, missing_poisson_tensor_y>,
    item<has<hat_probe, A>, missing_hat_v>, item<has<vee_probe, A>, missing_vee_X>,
    item<has<exp_probe, A>, missing_exp_sigma>, item<has<adjoint_probe, A>, missing_adjoint_g>,
    item<has<coadjoint_probe, A>, missing_coadjoint_g_y>,
    item<has<exp_coadjoint_probe, A>, missing_exp_coadjoint_sigma_y>,
    item<has<casimirs_probe, A>, missing_casimirs_y>, item<has<casimir_scales_probe, A>, missing_casimir_scales_y>,
    item<!declares_cayley<A> || has<cayley_probe, A>, missing_cayley_sigma>,
    item<!declares_cayley<A> || has<cayley_coadjoint_probe, A>, missing_cayley_coadjoint_sigma_y>,
    item<!declares_cayley<A> || has<dcay_inv_probe, A>, missing_dcay_inv_sigma_v_q>>::type;

template <class List>
struct is_empty : std::false_type {};
template <class A>
struct is_empty<lacks<A>> : std::true_type {};
}  // namespace detail

/// The check itself: instantiating check<A> fails one static_assert, whose instantiation context
/// (the line "in instantiation of ... check<lacks<A, missing_...>>") lists the missing members.
template <class Lacks>
struct check {
  static_assert(detail::is_empty<Lacks>::value,
                "geomint: this type is not a Lie algebra of THE ALGEBRA CONCEPT (geomint/lie/algebra.hpp): "
                "the members it lacks are named by the missing_... arguments of "
                "geomint::algebra_concept::lacks<YourAlgebra, missing_...> in this diagnostic");
  /// Always true: referring to it instantiates the check (and fails it once, however many times
  /// it is referred to).
  static constexpr bool instantiated = true;
};
}  // namespace algebra_concept

/// Whether A has every member of the algebra concept (lie/algebra.hpp).
template <class A>
inline constexpr bool is_lie_algebra_v = algebra_concept::detail::is_empty<algebra_concept::detail::missing_members<A>>::value;

namespace detail {
/// A::dimension, or dynamic where A lacks it (the steppers' state type; the concept check says why).
template <class A, bool = algebra_concept::detail::has<algebra_concept::detail::dimension_probe, A>>
inline constexpr int algebra_dimension = Eigen::Dynamic;
template <class A>
inline constexpr int algebra_dimension<A, true> = A::dimension;

/// Naming this type instantiates the concept check for A: one static_assert naming what A lacks,
/// however many places name it. Every Lie–Poisson stepper names it where it first sees its
/// algebra (its class body and check_system) and compiles nothing more for an incomplete one.
/// (A type, so that nothing reads a value of the failed check: Clang takes a constant of a class
/// whose instantiation failed for no constant, one more error at every use.)
template <class A>
using lie_algebra_checked = decltype(algebra_concept::check<algebra_concept::detail::missing_members<A>>::instantiated);

/// Coordinates::applies_to<A> for an algebra; true for a type that is not one (the concept check
/// reports it, and applies_to would read its missing members).
template <class Coordinates, class A, bool = is_lie_algebra_v<A>>
struct coordinates_apply : std::true_type {};
template <class Coordinates, class A>
struct coordinates_apply<Coordinates, A, true> : std::bool_constant<Coordinates::template applies_to<A>> {};
}  // namespace detail

}  // namespace geomint
