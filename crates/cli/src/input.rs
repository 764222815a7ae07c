//! Reading FILE arguments: a scenario file (what the playground exports) or one group snapshot in
//! the `batch` format, classic or `"protocol":"consumer"`, which opens as the scenario of its
//! rebalance (`scenario::read_file`).

use std::io::Read;
use std::path::Path;

use scenario::Scenario;

/// The largest FILE `show`, `explain` and `link` read (64 MiB, like a `batch` line): more is refused
/// after reading just past the limit, so `kap show /dev/zero` stops at once.
pub const MAX_FILE: usize = 64 << 20;

pub fn read(path: &Path) -> Result<Scenario, String> {
    let text = if path.as_os_str() == "-" {
        read_text(std::io::stdin().lock(), MAX_FILE)
    } else {
        std::fs::File::open(path).map_err(|e| e.to_string()).and_then(|file| read_text(file, MAX_FILE))
    };
    text.and_then(|text| parse(&text)).map_err(|e| format!("{}: {e}", path.display()))
}

/// At most `limit` bytes of UTF-8 text, or why not.
pub fn read_text(reader: impl Read, limit: usize) -> Result<String, String> {
    let mut bytes = Vec::new();
    reader.take(limit as u64 + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() > limit {
        return Err(format!("larger than {} MiB, the most kap reads from a file", limit >> 20));
    }
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8: {}", e.utf8_error()))
}

pub fn parse(text: &str) -> Result<Scenario, String> {
    scenario::read_file(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_over_the_limit_and_bytes_that_are_not_utf8_are_refused() {
        assert_eq!(read_text(&b"{}"[..], 2).as_deref(), Ok("{}"));
        assert_eq!(
            read_text(std::io::repeat(0), 3 << 20),
            Err("larger than 3 MiB, the most kap reads from a file".into())
        );
        assert_eq!(
            read_text(&b"{\"title\":\"\xff\"}"[..], 100),
            Err("not UTF-8: invalid utf-8 sequence of 1 bytes from index 10".into())
        );
    }
}
