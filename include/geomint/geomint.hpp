// geomint: geometric time steppers for constrained mechanical and Lie–Poisson systems.
// Umbrella header of the core (Eigen and odeint's stepper tag only; no SUNDIALS headers).
#pragma once

#include "geomint/core/linear_solvers.hpp"
#include "geomint/core/newton.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/core/types.hpp"
#include "geomint/tableau/butcher_tableau.hpp"
#include "geomint/tableau/collocation.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/constrained_system.hpp"
#include "geomint/system/forced_system.hpp"
#include "geomint/system/mass.hpp"
#include "geomint/system/separable_system.hpp"
#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/constrained/rattle.hpp"
