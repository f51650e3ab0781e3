// Ordering of the DAE unknowns and column groups of the curvature differences (dae_model.hpp).
#include <algorithm>

#include "geomint/sundials/detail/dae_model.hpp"

namespace geomint::sundials::detail {

dae_layout interleaved_layout(const constraint_pattern& pattern, bool with_mu) {
  const int n = pattern.n, m = static_cast<int>(pattern.rows.size());
  std::vector<std::vector<int>> after(n);  // constraints placed after coordinate i
  std::vector<int> first;                  // constraints involving no coordinate
  for (int k = 0; k < m; ++k) {
    const auto& row = pattern.rows[k];
    if (row.empty()) first.push_back(k);
    else after[*std::max_element(row.begin(), row.end())].push_back(k);
  }
  dae_layout layout;
  layout.q.resize(n);
  layout.p.resize(n);
  layout.lambda.resize(m);
  if (with_mu) layout.mu.resize(m);
  int position = 0;
  auto place = [&](int k) {
    layout.lambda[k] = position++;
    if (with_mu) layout.mu[k] = position++;
  };
  for (int k : first) place(k);
  for (int i = 0; i < n; ++i) {
    layout.q[i] = position++;
    layout.p[i] = position++;
    for (int k : after[i]) place(k);
  }
  layout.size = position;
  return layout;
}

difference_groups color_columns(const constraint_pattern& pattern) {
  const int n = pattern.n, m = static_cast<int>(pattern.rows.size());
  std::vector<std::vector<int>> rows_of(n);
  for (int k = 0; k < m; ++k)
    for (int j : pattern.rows[k]) rows_of[j].push_back(k);

  difference_groups groups;
  std::vector<std::vector<char>> occupied;  // occupied[c][i]: coordinate i is reached by group c
  std::vector<char> mark(n, 0);
  std::vector<int> reach;
  for (int j = 0; j < n; ++j) {
    if (rows_of[j].empty()) continue;  // G does not depend on q_j: no curvature term
    reach.clear();
    for (int k : rows_of[j])
      for (int i : pattern.rows[k])
        if (!mark[i]) {
          mark[i] = 1;
          reach.push_back(i);
        }
    for (int i : reach) mark[i] = 0;
    std::size_t c = 0;
    while (c < occupied.size() &&
           std::any_of(reach.begin(), reach.end(), [&](int i) { return occupied[c][i] != 0; }))
      ++c;
    if (c == occupied.size()) {
      occupied.emplace_back(n, 0);
      groups.columns.emplace_back();
      groups.row_owner.emplace_back(m, -1);
      groups.coordinate_owner.emplace_back(n, -1);
    }
    groups.columns[c].push_back(j);
    for (int k : rows_of[j]) groups.row_owner[c][k] = j;
    for (int i : reach) {
      occupied[c][i] = 1;
      groups.coordinate_owner[c][i] = j;
    }
  }
  return groups;
}

}  // namespace geomint::sundials::detail
