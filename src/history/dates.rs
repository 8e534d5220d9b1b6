//! Dates for `--since` and `--until`: absolute (`2024-03-01`, `2024-03-01 14:00`) and
//! relative (`yesterday`, `last week`, `3 months ago`) forms, parsed by the `interim`
//! crate against a given "now" in UTC.

use anyhow::{Result, bail};
use jiff::Timestamp;
use jiff::tz::TimeZone;

/// The instant `text` names, relative to `now`. A bare date means its midnight (UTC).
pub fn parse(text: &str, now: Timestamp) -> Result<Timestamp> {
    let now = now.to_zoned(TimeZone::UTC);
    let t = text.trim();
    if let Ok(z) = interim::parse_date_string(t, now.clone(), interim::Dialect::Uk) {
        return Ok(z.timestamp());
    }
    // "last week", "last month", "last year": one such unit before now.
    let lowered = t.to_ascii_lowercase();
    if let Some(unit) = lowered.strip_prefix("last ")
        && let Ok(interval) = interim::parse_duration(&format!("1 {unit} ago"))
        && let Some(z) = apply(&now, interval)
    {
        return Ok(z.timestamp());
    }
    if let Ok(interval) = interim::parse_duration(t)
        && let Some(z) = apply(&now, interval)
    {
        return Ok(z.timestamp());
    }
    bail!(
        "cannot read {text:?} as a date (try 2024-03-01, \"2024-03-01 14:30\", yesterday, \"last week\" or \"3 months ago\")"
    )
}

fn apply(now: &jiff::Zoned, interval: interim::Interval) -> Option<jiff::Zoned> {
    let span = match interval {
        interim::Interval::Seconds(s) => jiff::Span::new().try_seconds(s).ok()?,
        interim::Interval::Days(d) => jiff::Span::new().try_days(d).ok()?,
        interim::Interval::Months(m) => jiff::Span::new().try_months(m).ok()?,
    };
    now.checked_add(span).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        s.parse().expect("timestamp")
    }

    #[test]
    fn absolute_and_relative_forms() {
        let now = at("2024-06-15T12:00:00Z");
        assert_eq!(
            parse("2024-03-01", now).expect("date"),
            at("2024-03-01T00:00:00Z")
        );
        assert_eq!(
            parse("2024-03-01 14:30", now).expect("date"),
            at("2024-03-01T14:30:00Z")
        );
        for (text, want) in [
            ("3 months ago", "2024-03-15T00:00:00Z"),
            ("last week", "2024-06-08T12:00:00Z"),
            ("2 days ago", "2024-06-13T12:00:00Z"),
            ("yesterday", "2024-06-14T12:00:00Z"),
        ] {
            let got = parse(text, now).map(|t| t.to_string());
            assert_eq!(got.ok().as_deref(), Some(want), "{text}");
        }
        assert!(parse("not a date", now).is_err());
    }
}
