#include "geo/shapes.hpp"

#include <cstdio>
#include <string>

namespace geo {

/** Area of the rectangle. */
Scalar Rect::area() const {
    return width * height;
}

/** Describes the rectangle, e.g. "rect 2.000000x3.000000 area=6.000000". */
std::string Rect::describe() const {
    std::string size = std::to_string(width) + "x" + std::to_string(height);
    return "rect " + size + " area=" + std::to_string(this->area());
}

/** Sum of the areas of all circles. */
Scalar total_area(const std::vector<Circle> &circles) {
    Scalar total = 0;
    for (const Circle &c : circles) {
        total += c.area();
    }
    return total;
}

}  // namespace geo

/** Describes the circle; defined with a fully qualified name. */
std::string geo::Circle::describe() const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "circle r=%.2f area=%.2f", radius, this->area());
    return buf;
}
