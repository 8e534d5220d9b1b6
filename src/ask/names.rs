//! Vocabulary matching: a name the question gives against the names the repository
//! defines — other spellings of an identifier, the nearest defined names by edit distance,
//! the defined names made of the question's words. Pure; the retrieve, refine and answer
//! stages share it (which is why it is not in any of them).

use std::collections::HashSet;

use super::text::{covered, split_identifier, stem, stems};

/// Other spellings of an identifier: its last segment, snake_case ↔ camelCase.
pub fn variants(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    let last = ident.rsplit(['.', ':']).next().unwrap_or(ident);
    if last != ident {
        out.push(last.to_string());
    }
    let parts = split_identifier(last);
    if parts.len() > 1 {
        let [pascal, camel, snake] = joined(&parts);
        out.extend([snake, camel, pascal]);
    }
    out.retain(|v| v != ident);
    out
}

/// The names a run of plain words may be written as: `MordantHelpFormatter`,
/// `mordantHelpFormatter`, `mordant_help_formatter` for "mordant help formatter".
pub fn joined(words: &[String]) -> [String; 3] {
    let pascal: String = words.iter().map(|w| capitalize(w)).collect();
    let camel = match words.split_first() {
        Some((first, rest)) => {
            first.clone() + &rest.iter().map(|w| capitalize(w)).collect::<String>()
        }
        None => String::new(),
    };
    [pascal, camel, words.join("_")]
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Defined names within a small edit distance of `name` (case-insensitive), nearest
/// first.
pub fn nearest_names(name: &str, vocab: &[String], n: usize) -> Vec<String> {
    let target = name
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(name)
        .to_lowercase();
    let max = (target.chars().count() / 4).clamp(1, 3);
    let mut scored: Vec<(usize, &String)> = vocab
        .iter()
        .filter(|v| v.len().abs_diff(target.len()) <= max)
        .filter_map(|v| {
            // strsim gives the full distance (a swap of two letters counts once); the
            // cut-off is applied here.
            let d = strsim::damerau_levenshtein(&target, &v.to_lowercase());
            (d <= max).then_some((d, v))
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(n).map(|(_, v)| v.clone()).collect()
}

/// Defined names whose parts cover the most of `words` (at least one whole word, and
/// all of the name's own parts found among the words or being few).
pub fn names_from_words(words: &[String], vocab: &[String], n: usize) -> Vec<String> {
    if words.is_empty() {
        return Vec::new();
    }
    let word_stems: HashSet<String> = words
        .iter()
        .flat_map(|w| split_identifier(w))
        .map(|p| stem(&p))
        .collect();
    // A cheap filter first: the name must hold the start of some word.
    let keys: Vec<String> = word_stems
        .iter()
        .map(|s| s.chars().take(4).collect::<String>())
        .filter(|k| k.len() >= 2)
        .collect();
    let mut scored: Vec<(f64, &String)> = Vec::new();
    for v in vocab {
        let lower = v.to_lowercase();
        if !keys.iter().any(|k| lower.contains(k.as_str())) {
            continue;
        }
        let parts = split_identifier(v);
        if parts.is_empty() || parts.len() > 5 {
            continue;
        }
        let hit = parts
            .iter()
            .filter(|p| word_stems.contains(&stem(p)))
            .count();
        if hit == 0 {
            continue;
        }
        let name_stems = stems(v);
        let words_hit = words.iter().filter(|w| covered(w, &name_stems)).count();
        // Most question words covered, then names made only of question words.
        let score = words_hit as f64 * 2.0 + hit as f64 / parts.len() as f64;
        if hit == parts.len() || words_hit >= 2 {
            scored.push((score, v));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.len().cmp(&b.1.len())));
    let mut out: Vec<String> = Vec::new();
    for (_, v) in scored {
        if !out.contains(v) {
            out.push(v.clone());
        }
        if out.len() >= n {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelled_names_find_their_neighbours() {
        let vocab: Vec<String> = ["parse_config", "load_config", "ParseConfig", "push"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // The nearest first; `ParseConfig` (two edits away once lowercased) may follow.
        assert_eq!(nearest_names("parse_confg", &vocab, 1), ["parse_config"]);
        assert_eq!(nearest_names("parse_confg", &vocab, 2)[0], "parse_config");
        assert_eq!(nearest_names("Stack::psh", &vocab, 1), ["push"]);
        assert!(nearest_names("kubernetes", &vocab, 2).is_empty());
    }

    #[test]
    fn words_find_the_names_made_of_them() {
        let vocab: Vec<String> = ["parse_config", "config", "parse", "render_page"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let words = vec!["parsing".to_string(), "configs".to_string()];
        let got = names_from_words(&words, &vocab, 2);
        assert_eq!(got.first().map(String::as_str), Some("parse_config"));
    }

    #[test]
    fn words_join_into_each_case_style() {
        let words: Vec<String> = ["mordant", "help", "formatter"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            joined(&words),
            [
                "MordantHelpFormatter",
                "mordantHelpFormatter",
                "mordant_help_formatter"
            ]
        );
    }

    #[test]
    fn variants_switch_case_styles() {
        let v = variants("ParseConfig");
        assert!(v.contains(&"parse_config".to_string()));
        assert!(variants("Stack::push").contains(&"push".to_string()));
    }
}
