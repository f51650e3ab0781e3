// The verbs of the geomint command (docs/cli.md), each in its own file; main.cpp parses the
// command line and calls one.
#pragma once

#include "cli/arguments.hpp"
#include "cli/ensemble_command.hpp"

namespace geomint::cli {

/// geomint list: problems, methods and references.
int list_command();
/// geomint list --markdown: the method catalogue as README's method table.
int list_markdown();
/// geomint run: one method on one problem.
int run_command(const arguments& a);
/// geomint compare: several methods and the references on one problem, with plots.
int compare_command(const arguments& a);
/// geomint ensemble: many trajectories of one method (threads, MPI ranks).
int ensemble_verb(const arguments& a, const mpi_session& mpi);

}  // namespace geomint::cli
