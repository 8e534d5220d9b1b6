#include <cstdio>
#include <vector>

#include "geo/shapes.hpp"
#include "geo/stats.hpp"

namespace st = stats;

/** Mean radius of the circles; a local function, not stats::mean. */
static double mean(const std::vector<geo::Circle> &circles) {
    std::vector<double> radii;
    for (const geo::Circle &c : circles) {
        radii.push_back(c.radius);
    }
    return st::mean(radii);
}

/** Prints a few shapes and statistics. */
int main() {
    std::vector<geo::Circle> circles{{{0, 0}, 1.0}, {{2, 2}, 0.5}};
    geo::Rect rect{{0, 0}, 2.0, 3.0};
    rect.grow();
    std::printf("%s\n", rect.describe().c_str());
    for (const geo::Circle &c : circles) {
        std::printf("%s\n", c.describe().c_str());
    }
    std::printf("total circle area %.3f\n", geo::total_area(circles));
    std::printf("mean radius %.3f\n", mean(circles));
    std::printf("2^10 = %.0f\n", st::power(2.0, 10));
    std::printf("clamped %d\n", geo::clamp(15, 0, 10));
    return 0;
}
