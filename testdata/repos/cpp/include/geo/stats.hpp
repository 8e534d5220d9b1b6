// stats.hpp - tiny numeric helpers.
#pragma once

#include <cstddef>
#include <vector>

namespace stats {

/** Sum of values[i], values[i + 1], ... */
double sum_from(const std::vector<double> &values, std::size_t i);

/** Arithmetic mean; 0 for an empty vector. */
double mean(const std::vector<double> &values);

/** x raised to a non-negative integer power. */
double power(double x, unsigned n);

}  // namespace stats
