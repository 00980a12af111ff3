//! Numbers an mjai log gives, checked: a field within its range, one value per player, in hundreds.

/// A number the log gives, within `0..=max`.
pub(super) fn in_range(v: u8, key: &str, max: usize) -> Result<u8, String> {
    if usize::from(v) > max {
        return Err(format!("\"{key}\" {v} out of range 0..={max}"));
    }
    Ok(v)
}

/// A list of 3 or 4 numbers, by seat (scores, deltas).
pub(super) fn seat_values(vals: &[i32], what: &str, n: usize) -> Result<[i32; 4], String> {
    // 3-player logs may keep a fourth, zero slot
    if vals.len() < n || vals.len() > 4 || vals[n..].iter().any(|&x| x != 0) {
        return Err(format!("{what} {vals:?} does not hold one value per player ({n})"));
    }
    let mut out = [0; 4];
    for (o, &x) in out.iter_mut().zip(vals) {
        if x.abs() > 10_000_000 {
            return Err(format!("{what} value {x} out of range"));
        }
        *o = x;
    }
    if let Some(x) = out.iter().find(|&&x| x % 100 != 0) {
        return Err(format!("{what} {:?} holds {x}, not in hundreds: not a riichi-rule game", &out[..n]));
    }
    Ok(out)
}

/// [`seat_values`] of a field the log may leave out.
pub(super) fn opt_seat_values(v: Option<&[i32]>, key: &str, n: usize) -> Result<Option<[i32; 4]>, String> {
    v.map(|v| seat_values(v, &format!("\"{key}\""), n)).transpose()
}

pub(super) fn sub(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]]
}
