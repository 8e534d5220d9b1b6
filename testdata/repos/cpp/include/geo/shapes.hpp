// shapes.hpp - basic 2-D shapes.
#pragma once

#include <string>
#include <vector>

/** Approximation of pi used for circle areas. */
#define GEO_PI 3.141592653589793

/** Square of a value; evaluates its argument twice. */
#define SQUARE(x) ((x) * (x))

namespace geo {

/** Scalar type used for all coordinates and lengths. */
using Scalar = double;

/** Kinds of shape, used in reports. */
enum class Kind {
    Round,
    Boxy,
};

/** A point in the plane. */
struct Point {
    Scalar x;
    Scalar y;
};

/** Multiplies a length by a factor. */
inline Scalar scale(Scalar length, Scalar factor) {
    return length * factor;
}

/** Clamps v into the closed range [lo, hi]. */
template <typename T>
T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (hi < v ? hi : v);
}

/** A circle given by its centre and radius. */
class Circle {
public:
    Point center;
    Scalar radius;

    /** Area of the circle. */
    Scalar area() const {
        return GEO_PI * SQUARE(radius);
    }

    /** One-line description; defined in shapes.cpp. */
    std::string describe() const;
};

/** An axis-aligned rectangle. */
class Rect {
public:
    Point origin;
    Scalar width;
    Scalar height;

    /** Area of the rectangle; defined in shapes.cpp. */
    Scalar area() const;

    /** Scales both sides by factor using the free function geo::scale. */
    void scale(Scalar factor) {
        width = geo::scale(width, factor);
        height = geo::scale(height, factor);
    }

    /** Doubles both sides; the unqualified call finds the member scale(). */
    void grow() {
        scale(2.0);
    }

    /** One-line description; defined in shapes.cpp. */
    std::string describe() const;
};

/** Sum of the areas of all circles. */
Scalar total_area(const std::vector<Circle> &circles);

}  // namespace geo
