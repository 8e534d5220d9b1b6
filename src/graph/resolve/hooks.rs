//! The resolver's per-language hooks: builtins and global objects that are never a
//! repository definition, base classes and return types read from a signature.

use super::*;

pub(super) fn is_builtin(lang: Lang, name: &str) -> bool {
    lang.spec().resolve.builtins.contains(&name)
}

/// Objects every program of the language can reach without an import.
pub(super) fn is_global_object(lang: Lang, name: &str) -> bool {
    lang.spec().resolve.global_objects.contains(&name)
}

pub(super) fn is_caps(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

pub(super) fn is_type_kind(kind: Option<SymbolKind>) -> bool {
    use SymbolKind::*;
    matches!(kind, Some(Class | Struct | Enum | Trait | Interface | Type))
}

pub(super) fn is_container(kind: Option<SymbolKind>) -> bool {
    is_type_kind(kind) || kind == Some(SymbolKind::Impl)
}

/// The base classes a class declaration names.
pub(super) fn bases(lang: Lang, sig: &str) -> Vec<String> {
    let list: Vec<&str> = match lang {
        Lang::Python => {
            let Some(open) = sig.find('(') else {
                return Vec::new();
            };
            let inner = sig[open + 1..].rsplit_once(')').map_or("", |(a, _)| a);
            inner.split(',').filter(|b| !b.contains('=')).collect()
        }
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx | Lang::Java => {
            let mut out = Vec::new();
            let words: Vec<&str> = sig
                .split([' ', ',', '{'])
                .filter(|w| !w.is_empty())
                .collect();
            let mut take = false;
            for w in words {
                match w {
                    "extends" | "implements" => take = true,
                    _ if take => out.push(w),
                    _ => {}
                }
            }
            out
        }
        Lang::Cpp => match sig.split_once(" : ") {
            Some((_, rest)) => rest
                .split([',', '{'])
                .map(|b| {
                    b.trim()
                        .trim_start_matches("public ")
                        .trim_start_matches("protected ")
                        .trim_start_matches("private ")
                        .trim_start_matches("virtual ")
                })
                .collect(),
            None => Vec::new(),
        },
        // `class Bundle extends Item implements \Countable`: the last segment of each.
        Lang::Php => {
            let mut out = Vec::new();
            let mut take = false;
            for w in sig.split([' ', ',', '{']).filter(|w| !w.is_empty()) {
                match w {
                    "extends" | "implements" => take = true,
                    _ if take => out.push(w.rsplit('\\').next().unwrap_or(w)),
                    _ => {}
                }
            }
            out
        }
        // `class Bundle < Item`, `class Error < ::StandardError`.
        Lang::Ruby => match sig.split_once(" < ") {
            Some((_, base)) => vec![base.trim().trim_start_matches("::")],
            None => Vec::new(),
        },
        // A type alias (`type BoolFlag = FlagBase[bool]`) has its target's methods.
        Lang::Go => match sig.split_once(" = ") {
            Some((_, target)) => vec![target.split('[').next().unwrap_or(target)],
            None => Vec::new(),
        },
        #[cfg(feature = "lang-swift")]
        Lang::Swift => swift_bases(sig),
        #[cfg(feature = "lang-scala")]
        Lang::Scala => return scala_bases(sig),
        // A type alias (`typealias NullableOption<T> = OptionWithValues<T?, T>`) has its
        // target's methods.
        #[cfg(feature = "lang-kotlin")]
        Lang::Kotlin => match sig.split_once("typealias ") {
            Some((_, alias)) => alias
                .split_once('=')
                .map(|(_, target)| vec![target.trim()])
                .unwrap_or_default(),
            None => kotlin_supertypes(sig),
        },
        _ => Vec::new(),
    };
    #[cfg(feature = "lang-kotlin")]
    let read: fn(&str) -> String = if lang == Lang::Kotlin {
        crate::syntax::refs::jvm_type
    } else {
        simple_type
    };
    #[cfg(not(feature = "lang-kotlin"))]
    let read: fn(&str) -> String = simple_type;
    list.into_iter()
        .map(read)
        .filter(|b| !b.is_empty() && b != "object")
        .collect()
}

/// The return type a signature declares, as a bare type name.
pub(super) fn return_type(lang: Lang, sig: &str, name: &str) -> Option<String> {
    let t = match lang {
        Lang::Rust | Lang::Python => {
            let after = sig.rsplit_once("->")?.1;
            after
                .split(['{', ':'])
                .next()
                .unwrap_or(after)
                .split(" where ")
                .next()?
                .to_string()
        }
        Lang::Go | Lang::TypeScript | Lang::Tsx | Lang::JavaScript | Lang::Php => {
            after_parameters(sig, name)?
        }
        // `fun f(…): T`, `fun T.f(…): R`.
        #[cfg(feature = "lang-kotlin")]
        Lang::Kotlin => {
            let t = crate::syntax::refs::jvm_type(&after_parameters(sig, name)?);
            return (!t.is_empty()).then_some(t);
        }
        // Ruby, Bash and Lua state no return types.
        Lang::Ruby | Lang::Bash | Lang::Lua => return None,
        #[cfg(feature = "lang-swift")]
        Lang::Swift => swift_return_type(sig)?.to_string(),
        #[cfg(feature = "lang-scala")]
        Lang::Scala => scala_return_type(sig, name)?,
        Lang::Java | Lang::C | Lang::Cpp => {
            let before = sig.split(&format!("{name}(")).next()?;
            let before = before.rsplit_once("::").map_or(before, |(b, _)| b);
            let word = before.split_whitespace().last()?;
            word.to_string()
        }
    };
    let t = simple_type(&t);
    (!t.is_empty()).then_some(t)
}

/// What a Swift type declaration inherits from: `class Bundle: Item, Describable` (the
/// superclass first, then protocols; generic parameters and a `where` clause left out),
/// or the type a `typealias` names (whose members it has).
#[cfg(feature = "lang-swift")]
fn swift_bases(sig: &str) -> Vec<&str> {
    if let Some((_, target)) = sig
        .split_once("typealias ")
        .and_then(|(_, r)| r.split_once(" = "))
    {
        return vec![target.split('<').next().unwrap_or(target)];
    }
    let mut depth = 0i32;
    let colon = sig.char_indices().find_map(|(i, c)| {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ':' if depth == 0 => return Some(i),
            _ => {}
        }
        None
    });
    let Some(colon) = colon else {
        return Vec::new();
    };
    let rest = &sig[colon + 1..];
    let rest = rest.split(" where ").next().unwrap_or(rest);
    rest.split(',')
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .collect()
}

/// `class A(x: Int) extends B(x) with C[T]`, `object O extends B, C`: `B`, `C`. The words
/// after `extends` outside brackets, split at `with` and `,`, up to `derives`.
#[cfg(feature = "lang-scala")]
fn scala_bases(sig: &str) -> Vec<String> {
    let mut depth = 0i32;
    let mut top = String::with_capacity(sig.len());
    for ch in sig.chars() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ if depth == 0 => top.push(ch),
            _ => {}
        }
    }
    let Some((_, rest)) = top.split_once(" extends ") else {
        return Vec::new();
    };
    let rest = rest.split(" derives ").next().unwrap_or(rest);
    rest.split(" with ")
        .flat_map(|b| b.split(','))
        .map(simple_type)
        .filter(|b| !b.is_empty())
        .collect()
}

/// The type after a Swift function's `->` (outside its parameter list and generic
/// parameters, before a `where` clause), unless it is a tuple, a function or a dictionary.
#[cfg(feature = "lang-swift")]
fn swift_return_type(sig: &str) -> Option<&str> {
    let b = sig.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'-' if depth == 0 && b.get(i + 1) == Some(&b'>') => {
                let rest = sig[i + 2..].trim();
                let rest = rest.split(" where ").next().unwrap_or(rest).trim();
                let bad = rest.starts_with('(') || rest.contains([':', '(']) || rest.is_empty();
                return (!bad).then_some(rest);
            }
            b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
            b'(' | b'<' | b'[' => depth += 1,
            b')' | b'>' | b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// `def f[T](a: A)(implicit b: B): Res =` → `Res`: the type after the parameter lists
/// that follow the name; none when the signature states none (`def f = …`).
#[cfg(feature = "lang-scala")]
fn scala_return_type(sig: &str, name: &str) -> Option<String> {
    let at = sig
        .find(&format!("def {name}"))
        .map(|i| i + 4 + name.len())
        .or_else(|| sig.find(name).map(|i| i + name.len()))?;
    let rest = &sig[at..];
    let mut depth = 0i32;
    let mut after = rest.len();
    for (i, ch) in rest.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ if depth == 0 && !ch.is_whitespace() => {
                after = i;
                break;
            }
            _ => {}
        }
    }
    let t = rest[after..].strip_prefix(':')?;
    let t = t.trim().trim_end_matches('=').trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// What a signature states after the parameter list that follows the name (`f(…)`,
/// `f = (…)`, `f: (…)`): the return type, `: T`, `=> T` or `: (T, …)` read as `T`.
fn after_parameters(sig: &str, name: &str) -> Option<String> {
    let at = match sig.find(&format!("{name}(")) {
        Some(i) => i + name.len(),
        None => {
            let n = sig.find(name)? + name.len();
            n + sig[n..].find('(')?
        }
    };
    let rest = &sig[at..];
    let mut depth = 0i32;
    let mut end = None;
    for (i, ch) in rest.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let r = rest[end?..].trim().trim_end_matches([';', '{']).trim();
    // `f: (…) => T` (a property of a function type), `f = (…): T =>` (an arrow).
    let r = r.strip_prefix("=>").unwrap_or(r).trim();
    let r = r.strip_suffix("=>").unwrap_or(r).trim();
    let r = r.strip_prefix(':').unwrap_or(r).trim();
    let r = r
        .strip_prefix('(')
        .map_or(r, |x| x.split(',').next().unwrap_or(x));
    // PHP's `?Money`, `\App\Money`: the class.
    let r = r.trim_start_matches('?');
    Some(r.rsplit('\\').next().unwrap_or(r).to_string())
}

/// The supertypes a Kotlin class header names after its `:` (`class Bundle(…) : Item(…),
/// Comparable<Bundle>` → `Item`, `Comparable`): the list at the top level of brackets,
/// each without its constructor arguments or `by` delegate.
#[cfg(feature = "lang-kotlin")]
fn kotlin_supertypes(sig: &str) -> Vec<&str> {
    let mut depth = 0i32;
    let mut start = None;
    let mut out = Vec::new();
    let mut item = 0;
    let mut prev = ' ';
    for (i, ch) in sig.char_indices() {
        let arrow = prev == '-';
        prev = ch;
        match ch {
            '(' | '<' | '[' => depth += 1,
            // `(Int) -> Unit` in a parameter's type is no bracket.
            '>' if arrow => {}
            ')' | '>' | ']' => depth -= 1,
            ':' if depth == 0 && start.is_none() => {
                start = Some(i + 1);
                item = i + 1;
            }
            ',' if depth == 0 && start.is_some() => {
                out.push(&sig[item..i]);
                item = i + 1;
            }
            '{' if depth == 0 => break,
            _ => {}
        }
    }
    if start.is_some() {
        let end = sig[item..].find('{').map_or(sig.len(), |e| item + e);
        out.push(&sig[item..end]);
    }
    out.into_iter()
        .map(|b| {
            let b = b.split(" where ").next().unwrap_or(b);
            let b = b.split(" by ").next().unwrap_or(b);
            b.split('(').next().unwrap_or(b).trim()
        })
        .collect()
}
