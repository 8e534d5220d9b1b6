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
        // `class Bundle<T> : Item, IDescribable where T : new()`, `record B(int X) : A(X)`:
        // the types after the first `:` outside brackets, up to `where`.
        #[cfg(feature = "lang-csharp")]
        Lang::CSharp => {
            let head = sig.split(" where ").next().unwrap_or(sig);
            let Some(colon) = top_level_positions(head, ':').first().copied() else {
                return Vec::new();
            };
            let rest = &head[colon + 1..];
            let mut out = Vec::new();
            let mut from = 0;
            for at in top_level_positions(rest, ',')
                .into_iter()
                .chain(std::iter::once(rest.len()))
            {
                out.push(rest[from..at].trim());
                from = at + 1;
            }
            out
        }
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
        // `public static Item Make(…)`, `Dictionary<string, Item> Index<T>(…)`: the type
        // before the name (its type arguments kept together); none for a constructor.
        #[cfg(feature = "lang-csharp")]
        Lang::CSharp => {
            let at = sig
                .find(&format!(" {name}("))
                .or_else(|| sig.find(&format!(" {name}<")))?;
            let before = sig[..at].trim_end();
            let mut depth = 0i32;
            let mut start = 0;
            for (i, ch) in before.char_indices().rev() {
                match ch {
                    '>' | ')' | ']' => depth += 1,
                    '<' | '(' | '[' => depth -= 1,
                    c if c.is_whitespace() && depth == 0 => {
                        start = i + 1;
                        break;
                    }
                    _ => {}
                }
            }
            let word = &before[start..];
            if crate::syntax::lang::CSHARP_MODIFIERS.contains(&word) {
                return None;
            }
            word.to_string()
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

/// Byte offsets of `needle` in `s` outside `<…>`, `(…)` and `[…]` (a closing bracket
/// as `needle`: the one that closes what was open before `s`).
#[cfg(feature = "lang-csharp")]
fn top_level_positions(s: &str, needle: char) -> Vec<usize> {
    let mut depth = 0i32;
    let mut out = Vec::new();
    for (i, ch) in s.char_indices() {
        match ch {
            c if c == needle && depth == 0 => out.push(i),
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    out
}

/// How many arguments a call of definition `name` may pass, read from its signature:
/// (fewest, most), the most `u8::MAX` for a variable count. `None` when the language does
/// not overload by it or the signature does not show the whole parameter list (cut short).
pub(super) fn param_range(lang: Lang, sig: &str, name: &str) -> Option<(u8, u8)> {
    let (params, _) = parameters(lang, sig, name)?;
    let (mut lo, mut hi, mut variable) = (0u32, 0u32, false);
    for (i, p) in params.iter().enumerate() {
        if p.starts_with("params ") {
            variable = true;
            continue;
        }
        hi += 1;
        if !(p.contains('=') || (i == 0 && p.starts_with("this "))) {
            lo += 1;
        }
    }
    let lo = lo.min(254) as u8;
    let hi = if variable { u8::MAX } else { hi.min(254) as u8 };
    Some((lo, hi))
}

/// The parameters' types of definition `name`, as [`Params`], where the language
/// overloads by them and the signature shows them all.
pub(super) fn param_types(lang: Lang, sig: &str, name: &str) -> Option<Params> {
    let (params, generics) = parameters(lang, sig, name)?;
    let mut types = Vec::new();
    let mut element = None;
    for p in &params {
        let is_params = p.starts_with("params ");
        let mut p = p.split(" = ").next().unwrap_or(p).trim();
        for m in [
            "this ",
            "params ",
            "ref ",
            "out ",
            "in ",
            "scoped ",
            "readonly ",
        ] {
            p = p.strip_prefix(m).unwrap_or(p).trim_start();
        }
        // The type is all but the last word (the name).
        let ty = p.rsplit_once(' ').map_or("", |(t, _)| t).replace('?', "");
        if is_params {
            element = Some(collection_element(&ty));
        }
        types.push(simple_type(&ty));
    }
    Some(Params {
        types,
        element,
        generics,
    })
}

/// What [`param_types`] reads of a signature.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Params {
    /// Each parameter's bare type (`string`, `LogEventLevel`, `object[]`, `T`).
    pub types: Vec<String>,
    /// The element type of a last `params` parameter (`object` of `params object[]`).
    pub element: Option<String>,
    /// The method's own type parameters (`T0`, `T1`).
    pub generics: Vec<String>,
}

/// The element of a collection type as written: `X` of `X[]`, `ReadOnlySpan<X>`,
/// `IEnumerable<X>`; else the type itself.
fn collection_element(ty: &str) -> String {
    let ty = ty.trim();
    if let Some(inner) = ty.strip_suffix("[]") {
        return simple_type(inner);
    }
    match (ty.find('<'), ty.rfind('>')) {
        (Some(open), Some(close)) if open < close => simple_type(&ty[open + 1..close]),
        _ => simple_type(ty),
    }
}

/// The parameters of definition `name` as written (attributes dropped) and its type
/// parameters, read from its signature; `None` when the language does not overload or
/// the list is cut short.
// Without an overloading language built in, only the fallback arm reads `lang`.
#[cfg_attr(not(feature = "lang-csharp"), allow(unused_variables))]
fn parameters(lang: Lang, sig: &str, name: &str) -> Option<(Vec<String>, Vec<String>)> {
    match lang {
        // `public T Get<T>(string key, int n = 0, params object[] rest)`; an extension
        // method's `this T x` may be passed or be the receiver.
        #[cfg(feature = "lang-csharp")]
        Lang::CSharp => {
            let mut from = 0;
            let mut generics = Vec::new();
            let open = loop {
                let i = from + sig[from..].find(name)?;
                let before = sig[..i].chars().next_back();
                let after = sig[i + name.len()..].trim_start();
                from = i + name.len();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                if after.starts_with('(') {
                    break sig.len() - after.len();
                }
                if let Some(rest) = after.strip_prefix('<') {
                    let close = top_level_positions(after, '(').first().copied()?;
                    let list = rest.split('>').next().unwrap_or("");
                    generics = list.split(',').map(|g| g.trim().to_string()).collect();
                    break sig.len() - after.len() + close;
                }
            };
            let list = &sig[open + 1..];
            let close = top_level_positions(list, ')').first().copied()?;
            let list = list[..close].trim();
            if list.is_empty() {
                return Some((Vec::new(), generics));
            }
            let mut out = Vec::new();
            let mut start = 0;
            let ends = top_level_positions(list, ',');
            for end in ends.into_iter().chain(std::iter::once(list.len())) {
                let p = list[start..end].trim();
                start = end + 1;
                // Attributes first: `[CallerMemberName] string name = ""`.
                let p = match p.strip_prefix('[') {
                    Some(rest) => rest.split_once(']').map_or(rest, |(_, r)| r).trim(),
                    None => p,
                };
                out.push(p.to_string());
            }
            Some((out, generics))
        }
        _ => None,
    }
}
