//! Small string and number helpers shared across the crate.

/// Longest task name kept after normalization.
pub const MAX_NAME: usize = 24;

/// Trims `name`, lower-cases it and cuts it to [`MAX_NAME`] characters.
pub fn normalize(name: &str) -> String {
    let lower = name.trim().to_lowercase();
    lower.chars().take(MAX_NAME).collect()
}

/// Greatest common divisor, by Euclid's algorithm.
pub fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gcd of two multiples of four is four.
    #[test]
    fn gcd_of_multiples() {
        let g = gcd(12, 8);
        assert_eq!(g, 4);
    }
}
