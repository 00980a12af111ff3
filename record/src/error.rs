//! Errors for people: each names where in the file (or in the game) it happened.

use std::fmt;

/// A file could not be read as a game record: syntax, truncation, or a record that is not a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// Byte offset in the decompressed text.
    pub offset: u64,
    /// 1-based line and column of `offset`.
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl ReadError {
    /// An error at byte `offset` of `text`, with its line and column.
    pub fn at(text: &[u8], offset: u64, message: String) -> ReadError {
        let end = usize::try_from(offset).unwrap_or(usize::MAX).min(text.len());
        let before = &text[..end];
        let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let column = (end - line_start) as u32 + 1;
        ReadError { offset, line, column, message }
    }
    /// An error on a line of a line-oriented file (mjai) that starts at byte `offset`.
    pub fn line(line: u32, offset: u64, message: String) -> ReadError {
        ReadError { offset, line, column: 1, message }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {} (byte {}): {}", self.line, self.column, self.offset, self.message)
    }
}

impl std::error::Error for ReadError {}
