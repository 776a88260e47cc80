//! Vectors as the store keeps them: little-endian `f32` blobs, the sign
//! bits that make the first, cheap pass of a vector search (one bit a
//! dimension, compared by Hamming distance), and cosine similarity for the
//! exact second pass. A vector is normalized to unit length before it is
//! stored, so cosine is a dot product.

/// A vector of unit length (or all zeros, which matches nothing).
pub fn normalized(v: &[f32]) -> Vec<f32> {
    let norm = v
        .iter()
        .map(|x| f64::from(*x) * f64::from(*x))
        .sum::<f64>()
        .sqrt();
    if norm == 0.0 || !norm.is_finite() {
        return vec![0.0; v.len()];
    }
    v.iter().map(|x| (f64::from(*x) / norm) as f32).collect()
}

/// The blob of a vector: its values as little-endian `f32`.
pub fn to_blob(v: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * 4);
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// The vector of a blob; `None` when its length is not a whole number of
/// `f32`s.
pub fn from_blob(b: &[u8]) -> Option<Vec<f32>> {
    if !b.len().is_multiple_of(4) {
        return None;
    }
    Some(
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// The dot product of a vector and a blob of the same length (the stored
/// vectors are unit length, so it is their cosine); 0 when the lengths
/// differ.
pub fn dot_blob(q: &[f32], b: &[u8]) -> f32 {
    if b.len() != q.len() * 4 {
        return 0.0;
    }
    let mut acc = [0.0f32; 8];
    let mut chunks = b.chunks_exact(32).zip(q.chunks_exact(8));
    for (bc, qc) in &mut chunks {
        for i in 0..8 {
            let x = f32::from_le_bytes([bc[4 * i], bc[4 * i + 1], bc[4 * i + 2], bc[4 * i + 3]]);
            acc[i] += x * qc[i];
        }
    }
    let done = q.len() / 8 * 8;
    let mut sum: f32 = acc.iter().sum();
    for i in done..q.len() {
        let x = f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        sum += x * q[i];
    }
    sum
}

/// The cosine similarity of two vectors (0 when either is all zeros or
/// the lengths differ).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut ab, mut aa, mut bb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    if aa == 0.0 || bb == 0.0 {
        return 0.0;
    }
    ab / (aa.sqrt() * bb.sqrt())
}

/// One bit a dimension, set where the value is positive, packed into
/// little-endian `u64` words as bytes.
pub fn sign_bits(v: &[f32]) -> Vec<u8> {
    let words = v.len().div_ceil(64);
    let mut out = vec![0u8; words * 8];
    for (i, x) in v.iter().enumerate() {
        if *x > 0.0 {
            out[i / 8] |= 1 << (i % 8);
        }
    }
    out
}

/// The number of bits where two sign blobs differ (`u32::MAX` when their
/// lengths differ).
pub fn hamming(a: &[u8], b: &[u8]) -> u32 {
    if a.len() != b.len() {
        return u32::MAX;
    }
    let mut d = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes(x.try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(y.try_into().expect("8 bytes"));
        d += (x ^ y).count_ones();
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_round_trip_and_dot_matches_cosine() {
        let v = normalized(&[3.0, -4.0, 0.5, 1.0, 2.0, -1.0, 0.25, 7.0, -3.0]);
        let b = to_blob(&v);
        assert_eq!(from_blob(&b).unwrap(), v);
        assert!(from_blob(&b[1..]).is_none());
        let q = normalized(&[1.0, 0.0, 2.0, -1.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
        let exact = cosine(&q, &v);
        assert!((f64::from(dot_blob(&q, &b)) - exact).abs() < 1e-6);
        assert_eq!(dot_blob(&q[..3], &b), 0.0);
    }

    #[test]
    fn sign_bits_count_differences() {
        let a = sign_bits(&[1.0, -1.0, 1.0, 0.0]);
        let b = sign_bits(&[1.0, 1.0, -1.0, 0.0]);
        assert_eq!(a.len(), 8);
        assert_eq!(hamming(&a, &b), 2);
        assert_eq!(hamming(&a, &a), 0);
        let long = sign_bits(&vec![1.0; 768]);
        assert_eq!(long.len(), 96);
        assert_eq!(hamming(&long, &sign_bits(&vec![-1.0; 768])), 768);
        assert_eq!(hamming(&a, &long), u32::MAX);
    }

    #[test]
    fn zero_vectors_match_nothing() {
        assert_eq!(normalized(&[0.0, 0.0]), vec![0.0, 0.0]);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
    }
}
