// The layout rule of an order-disorder pair (database.hpp, order_disorder_layout): used by the reader, which drops
// an ordered phase whose layout does not map, and by the phase models, which merge the sublattices it names.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "io/database.hpp"

namespace pd {

namespace {

std::string sites(const std::vector<double>& ratios, size_t begin, size_t end) {
  std::ostringstream os;
  for (size_t s = begin; s < end; ++s) os << (s > begin ? " + " : "") << ratios[s];
  return os.str();
}

}  // namespace

OrderDisorderLayout order_disorder_layout(const PhaseDef& ordered, const PhaseDef& disordered) {
  OrderDisorderLayout out;
  const size_t nord = ordered.site_ratios.size(), ndis = disordered.site_ratios.size();
  const std::string pair = ordered.name + " and its DIS_PART " + disordered.name;
  if (ndis == 0 || disordered.constituents.size() != ndis || ordered.constituents.size() != nord) {
    out.mismatch = "the DIS_PART phase " + disordered.name + " has no constituents";
    return out;
  }
  if (nord < ndis) {
    out.mismatch = pair + ": " + ordered.name + " has " + std::to_string(nord) + " sublattices, fewer than " +
                   disordered.name + "'s " + std::to_string(ndis);
    return out;
  }
  const size_t merged = nord - ndis + 1;
  const auto& d0 = disordered.constituents[0];
  for (size_t s = 0; s < merged; ++s)
    for (const auto& c : ordered.constituents[s])
      if (std::find(d0.begin(), d0.end(), c) == d0.end()) {
        out.mismatch = pair + ": " + c + " on sublattice " + std::to_string(s + 1) + " of " + ordered.name +
                       " is not a constituent of sublattice 1 of " + disordered.name;
        return out;
      }
  double sum = 0;
  for (size_t s = 0; s < merged; ++s) sum += ordered.site_ratios[s];
  if (std::fabs(sum - disordered.site_ratios[0]) > 1e-9) {
    std::ostringstream os;
    os << pair << ": sublattices 1-" << merged << " of " << ordered.name << " hold "
       << sites(ordered.site_ratios, 0, merged) << " sites, sublattice 1 of " << disordered.name << " "
       << disordered.site_ratios[0];
    out.mismatch = os.str();
    return out;
  }
  for (size_t k = 1; k < ndis; ++k)
    if (std::fabs(disordered.site_ratios[k] - ordered.site_ratios[k + merged - 1]) > 1e-9) {
      std::ostringstream os;
      os << pair << ": interstitial sublattice " << k + merged << " of " << ordered.name << " holds "
         << ordered.site_ratios[k + merged - 1] << " sites, sublattice " << k + 1 << " of " << disordered.name << " "
         << disordered.site_ratios[k];
      out.mismatch = os.str();
      return out;
    }
  out.ordering_sublattices = merged;
  return out;
}

}  // namespace pd
