#include "geo/stats.hpp"

namespace stats {

static double half_power(double x, unsigned n);

/** Sum of values[i..], computed recursively. */
double sum_from(const std::vector<double> &values, std::size_t i) {
    if (i >= values.size()) {
        return 0.0;
    }
    return values[i] + sum_from(values, i + 1);
}

/** Arithmetic mean; 0 for an empty vector. */
double mean(const std::vector<double> &values) {
    if (values.empty()) {
        return 0.0;
    }
    return sum_from(values, 0) / values.size();
}

/** Exponentiation by squaring; odd exponents peel off one factor. */
double power(double x, unsigned n) {
    if (n == 0) {
        return 1.0;
    }
    if (n % 2 == 1) {
        return x * power(x, n - 1);
    }
    return half_power(x, n);
}

/** x^n for even n, as the square of x^(n/2). */
static double half_power(double x, unsigned n) {
    double h = power(x, n / 2);
    return h * h;
}

}  // namespace stats
