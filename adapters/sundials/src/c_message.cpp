// c_message.hpp: geomint's messages (UTF-8 mathematics) as plain ASCII for C users.
#include "c_message.hpp"

#include <cstring>

namespace geomint::sundials::detail {

namespace {

struct replacement {
  const char* from;
  const char* to;
};

// Longest matches first where one entry is a prefix of another (⁻¹ before ⁻).
const replacement replacements[] = {
    // C++ names a C user cannot call, and their C equivalents
    {"geomint::project_to_manifold", "GeomintCalcIC"},
    {"geomint::project_to_phase_space", "GeomintCalcIC"},
    {"project_to_manifold", "GeomintCalcIC"},
    // superscripts and subscripts
    {"\u207B\u00B9", "^-1"}, {"\u1D40", "^T"}, {"\u00B2", "^2"}, {"\u00B3", "^3"}, {"\u2074", "^4"},
    {"\u207B", "^-"}, {"\u00B9", "^1"}, {"\u207F", "^n"}, {"\u1D4F", "^k"}, {"\u2080", "0"},
    {"\u2081", "1"}, {"\u2082", "2"}, {"\u2083", "3"}, {"\u208B", "-"},
    // operators and punctuation
    {"\u2212", "-"}, {"\u2013", "-"}, {"\u2014", "-"}, {"\u2202", "d"}, {"\u2207", "grad "},
    {"\u00BD", "1/2"}, {"\u00BC", "1/4"}, {"\u00D7", "x"}, {"\u00B7", "*"}, {"\u2016", "||"},
    {"\u2264", "<="}, {"\u2265", ">="}, {"\u2260", "!="}, {"\u2248", "~"}, {"\u221E", "inf"},
    {"\u2192", "->"}, {"\u2190", "<-"}, {"\u21A6", "|->"}, {"\u2208", " in "}, {"\u2297", "(x)"},
    {"\u2218", "o"}, {"\u2026", "..."}, {"\u00A7", "sec. "}, {"\u27E8", "<"}, {"\u27E9", ">"},
    {"\u0307", "dot"}, {"\u1E57", "pdot"}, {"\u1E8F", "ydot"}, {"\u0303", "~"}, {"\u0302", "^"},
    // Greek letters
    {"\u03BB", "lambda"}, {"\u039B", "Lambda"}, {"\u03BC", "mu"}, {"\u03B8", "theta"},
    {"\u03B5", "eps"}, {"\u03A3", "sum"}, {"\u03C3", "sigma"}, {"\u03C9", "omega"}, {"\u03A9", "Omega"},
    {"\u03B1", "alpha"}, {"\u03B3", "gamma"}, {"\u03C8", "psi"}, {"\u03A8", "Psi"}, {"\u03A6", "Phi"},
    {"\u03C7", "chi"}, {"\u03BD", "nu"}, {"\u03BE", "xi"}, {"\u03C0", "pi"}, {"\u03A0", "Pi"},
    {"\u0394", "Delta"}, {"\u0393", "Gamma"},
    // names
    {"\u00F8", "o"}, {"\u00E2", "a"},
};

/// Length of the UTF-8 sequence starting with byte c (1 for a stray continuation byte).
std::size_t sequence_length(unsigned char c) {
  if (c >= 0xF0) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

}  // namespace

std::string ascii_message(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    for (const replacement& r : replacements) {
      const std::size_t n = std::strlen(r.from);
      if (text.compare(i, n, r.from) == 0) {
        out += r.to;
        i += n;
        replaced = true;
        break;
      }
    }
    if (replaced) continue;
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += text[i++];
    } else {  // a character without a transliteration
      out += '?';
      i += sequence_length(c);
    }
  }
  return out;
}

}  // namespace geomint::sundials::detail
