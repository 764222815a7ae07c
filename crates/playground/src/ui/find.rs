//! Finding rows by what is typed in a search box. The panels' "Find a member", the consumers
//! editor's "Find a consumer" and a subscriptions picker's topic filter all find the same way and
//! word their counts the same way.

/// What a search box looks for: the text typed, trimmed, found anywhere in a name, case aside.
/// Two needles are the same search when they find the same names.
#[derive(Clone, Debug, Default)]
pub struct Needle {
    typed: String,
    lower: String,
}

impl Needle {
    pub fn new(typed: &str) -> Needle {
        let typed = typed.trim();
        Needle { typed: typed.to_string(), lower: lowercase(typed) }
    }

    /// Whether nothing is looked for (every name is found).
    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }

    /// Whether `name` contains the text, case aside.
    pub fn finds(&self, name: &str) -> bool {
        self.lower.is_empty() || lowercase(name).contains(&self.lower)
    }
}

impl PartialEq for Needle {
    fn eq(&self, other: &Self) -> bool {
        self.lower == other.lower
    }
}

/// `text` in lower case, as Unicode maps it (`str::to_lowercase`). Beyond ASCII the page asks the
/// browser, whose `toLowerCase` is the same mapping, so that its wasm holds no case tables (8.5 KB
/// of gzip: issue 9's download).
fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    #[cfg(target_arch = "wasm32")]
    return web_sys::js_sys::JsString::from(text).to_lower_case().into();
    #[cfg(not(target_arch = "wasm32"))]
    return text.to_lowercase();
}

/// `n` with its thousands grouped: `2,000`.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// What a search box says of what it found: `found` of `total` rows, named `(one, many)`.
pub fn found(needle: &Needle, found: usize, total: usize, (one, many): (&str, &str)) -> String {
    let rows = |n| if n == 1 { one } else { many };
    match (needle.is_empty(), found) {
        (true, _) => format!("{} {}", grouped(total), rows(total)),
        (false, 0) => format!("No {one} matches “{}”", needle.typed),
        (false, _) => format!("{} of {} {} match", grouped(found), grouped(total), rows(total)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_needle_is_found_anywhere_in_a_name_case_aside_and_trimmed() {
        let needle = Needle::new("  Sumer-12 ");
        assert!(needle.finds("consumer-12"));
        assert!(needle.finds("CONSUMER-1234"));
        assert!(!needle.finds("consumer-21"));
        assert!(!needle.finds("consumer-1"));
        // Nothing typed (or only spaces) finds every name.
        assert!(Needle::new("   ").is_empty());
        assert!(Needle::new("").finds("anything"));
        // Beyond ASCII, as `str::to_lowercase` folds it.
        assert!(Needle::new("ÉTÉ").finds("consumer-été"));
        // A word's last Σ lowers to ς.
        assert!(Needle::new("ὀδυσσεύς").finds("ὈΔΥΣΣΕΎΣ"));
    }

    #[test]
    fn counts_are_worded_with_their_thousands_grouped() {
        assert_eq!(
            [0, 7, 999, 1_000, 2_000, 12_345, 1_234_567].map(grouped),
            ["0", "7", "999", "1,000", "2,000", "12,345", "1,234,567"]
        );
        let consumers = ("consumer", "consumers");
        assert_eq!(found(&Needle::new(""), 2_000, 2_000, consumers), "2,000 consumers");
        assert_eq!(found(&Needle::new("12"), 3, 2_000, consumers), "3 of 2,000 consumers match");
        assert_eq!(found(&Needle::new(" XYZ "), 0, 2_000, consumers), "No consumer matches “XYZ”");
        assert_eq!(Needle::new("Consumer-1"), Needle::new("consumer-1 "), "the same search");
        assert_eq!(found(&Needle::new("1"), 1, 300, ("member", "members")), "1 of 300 members match");
    }
}
