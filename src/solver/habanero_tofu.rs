//! `habanero-tofu`: AtCoder ARC013 C 「笑いをとれるかな？」.
//!
//! Each X×Y×Z tofu block hides habanero cells. A move slices a slab off one
//! face of one block and eats it; eating a habanero loses. A safe slab lies
//! strictly outside the bounding box of the block's habaneros, so each block
//! is six independent Nim heaps: the free distance from each face to that
//! box. Takahashi (first) wins iff the XOR of all 6N heaps is non-zero.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    input::{Field, InputError, Scanner, pretty_bound},
    outcome_lines, push_numbers,
};

pub const MAX_N: usize = 100;
pub const MAX_SIDE: u64 = 1_000_000_000;
pub const MAX_TOTAL_M: usize = 200_000;

pub struct HabaneroTofu;

/// One block: its size and the 0-indexed habanero cells inside it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Block {
    pub size: [u64; 3],
    pub habaneros: Vec<[u64; 3]>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HabaneroTofuInput {
    pub blocks: Vec<Block>,
}

/// The six face distances of a block: lower and upper gap on each axis.
pub fn face_heaps(block: &Block) -> [u64; 6] {
    let mut lo = [u64::MAX; 3];
    let mut hi = [0u64; 3];
    for cell in &block.habaneros {
        for axis in 0..3 {
            lo[axis] = lo[axis].min(cell[axis]);
            hi[axis] = hi[axis].max(cell[axis]);
        }
    }
    let mut heaps = [0; 6];
    for axis in 0..3 {
        heaps[2 * axis] = lo[axis];
        heaps[2 * axis + 1] = block.size[axis] - 1 - hi[axis];
    }
    heaps
}

const SIDES: [&str; 3] = ["X", "Y", "Z"];
const COORDS: [&str; 3] = ["x", "y", "z"];

/// The bounds of one case: the base problem's, or an interactive
/// variant's smaller ones.
pub struct CaseLimits {
    pub n: usize,
    /// The bound on X_i, Y_i and Z_i.
    pub side: u64,
    pub total_m: usize,
}

impl CaseLimits {
    pub const BASE: CaseLimits = CaseLimits {
        n: MAX_N,
        side: MAX_SIDE,
        total_m: MAX_TOTAL_M,
    };
}

/// Reads one case: `N`, then each block's size, habanero count and cells
/// (0-indexed, inside the block, distinct; kept sorted).
pub fn scan_case(s: &mut Scanner<'_>, limits: &CaseLimits) -> Result<HabaneroTofuInput, InputError> {
    let n = s.usize(Field::new("N"), 1, limits.n)?;
    let mut blocks = Vec::with_capacity(n);
    let mut total = 0;
    for b in 1..=n {
        let mut size = [0; 3];
        for axis in 0..3 {
            size[axis] = s.u64(Field::new(SIDES[axis]).in_case(b), 1, limits.side)?;
        }
        let m = s.usize(Field::new("M").in_case(b), 1, limits.total_m)?;
        total += m;
        if total > limits.total_m {
            return Err(InputError::Invalid {
                line: s.line(),
                message: format!(
                    "block {b}: the habanero counts so far sum to {total}, violating the constraint ΣM_i ≤ {}",
                    pretty_bound(limits.total_m as u64)
                ),
            });
        }
        // Cells with the line each was read on, for the duplicate check.
        let mut cells = Vec::with_capacity(m);
        for _ in 0..m {
            let mut cell = [0; 3];
            for axis in 0..3 {
                let field = Field::new(COORDS[axis]).in_case(b);
                cell[axis] = s.u64(field, 0, size[axis] - 1).map_err(|e| match e {
                    InputError::OutOfRange {
                        line, token, field, ..
                    } => InputError::OutOfRange {
                        line,
                        token,
                        field,
                        constraint: format!(
                            "0 ≤ {} < {} = {}",
                            COORDS[axis], SIDES[axis], size[axis]
                        ),
                    },
                    other => other,
                })?;
            }
            cells.push((cell, s.line()));
        }
        cells.sort_unstable();
        if let Some(w) = cells.windows(2).find(|w| w[0].0 == w[1].0) {
            let [x, y, z] = w[0].0;
            let (first, second) = (w[0].1.min(w[1].1), w[0].1.max(w[1].1));
            return Err(InputError::Invalid {
                line: second,
                message: format!(
                    "block {b}: habanero cell ({x}, {y}, {z}) is listed twice (lines {first} and {second}); cells must be distinct"
                ),
            });
        }
        blocks.push(Block {
            size,
            habaneros: cells.into_iter().map(|(cell, _)| cell).collect(),
        });
    }
    Ok(HabaneroTofuInput { blocks })
}

impl Problem for HabaneroTofu {
    const ID: &'static str = "habanero-tofu";
    type Input = HabaneroTofuInput;
    type Output = Outcome;

    fn parse(text: &str) -> Result<HabaneroTofuInput, InputError> {
        let mut s = Scanner::new(text);
        let input = scan_case(&mut s, &CaseLimits::BASE)?;
        s.finish()?;
        Ok(input)
    }

    fn solve(input: &HabaneroTofuInput) -> Outcome {
        let xor = input
            .blocks
            .iter()
            .flat_map(face_heaps)
            .fold(0, |x, heap| x ^ heap);
        Outcome::from_first_wins(xor != 0)
    }

    fn format(output: &Outcome) -> String {
        outcome_lines([output], "WIN", "LOSE")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        let (n, max_side, max_m) = match kind {
            TestKind::Small => (rng.range_usize(1, 3), 4, 3),
            TestKind::Edge => (rng.range_usize(1, 2), *rng.pick(&[1, MAX_SIDE]), 2),
            TestKind::Random => (rng.range_usize(1, MAX_N), MAX_SIDE, 200),
            TestKind::Max => (MAX_N, MAX_SIDE, MAX_TOTAL_M / MAX_N),
        };
        let mut out = String::new();
        push_numbers(&mut out, [n as u64]);
        for _ in 0..n {
            let size: Vec<u64> = (0..3)
                .map(|_| match kind {
                    TestKind::Max => rng.range(max_side / 2, max_side),
                    _ => rng.log_uniform(1, max_side),
                })
                .collect();
            let volume = size.iter().fold(1u64, |v, &s| v.saturating_mul(s));
            let m = if kind == TestKind::Max {
                max_m.min(volume as usize)
            } else {
                rng.range_usize(1, max_m.min(volume as usize))
            };
            // Distinct cells: draw until m different ones (volume ≥ m).
            let mut cells = std::collections::BTreeSet::new();
            while cells.len() < m {
                cells.insert([
                    rng.range(0, size[0] - 1),
                    rng.range(0, size[1] - 1),
                    rng.range(0, size[2] - 1),
                ]);
            }
            push_numbers(&mut out, size.iter().copied());
            push_numbers(&mut out, [m as u64]);
            for cell in cells {
                push_numbers(&mut out, cell);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::{WinLoseSearch, agrees_with_search, all_vectors};
    use proptest::prelude::*;

    /// A block during play: the remaining box `[lo, hi]` on each axis.
    type Boxes = Vec<[[u64; 2]; 3]>;

    /// Every safe slice from the rules: cut t ≥ 1 layers off one face of one
    /// box, allowed only if no habanero lies in the eaten slab.
    fn safe_cuts(boxes: &Boxes, blocks: &[Block]) -> Vec<Boxes> {
        let mut next = Vec::new();
        for (i, bx) in boxes.iter().enumerate() {
            for axis in 0..3 {
                let [lo, hi] = bx[axis];
                for t in 1..=(hi - lo) {
                    for from_low in [true, false] {
                        let (slab_lo, slab_hi) = if from_low {
                            (lo, lo + t - 1)
                        } else {
                            (hi + 1 - t, hi)
                        };
                        let eats_habanero = blocks[i]
                            .habaneros
                            .iter()
                            .any(|c| (slab_lo..=slab_hi).contains(&c[axis]));
                        if !eats_habanero {
                            let mut b = boxes.clone();
                            b[i][axis] = if from_low { [lo + t, hi] } else { [lo, hi - t] };
                            next.push(b);
                        }
                    }
                }
            }
        }
        next
    }

    /// The whole game from the rules: search over the sub-boxes left.
    fn searched_outcome(blocks: &[Block]) -> Outcome {
        let start: Boxes = blocks
            .iter()
            .map(|b| [[0, b.size[0] - 1], [0, b.size[1] - 1], [0, b.size[2] - 1]])
            .collect();
        let mut search = WinLoseSearch::normal_play(|b: &Boxes| safe_cuts(b, blocks));
        Outcome::from_first_wins(search.mover_wins(&start))
    }

    /// Every block with sides up to 3 and one or two habaneros.
    fn every_small_block() -> Vec<Block> {
        let mut blocks = Vec::new();
        for size in all_vectors(3, 2) {
            let size = [size[0] + 1, size[1] + 1, size[2] + 1];
            let cells: Vec<[u64; 3]> = (0..size[0])
                .flat_map(|x| (0..size[1]).flat_map(move |y| (0..size[2]).map(move |z| [x, y, z])))
                .collect();
            for (i, &first) in cells.iter().enumerate() {
                blocks.push(Block {
                    size,
                    habaneros: vec![first],
                });
                for &second in &cells[i + 1..] {
                    blocks.push(Block {
                        size,
                        habaneros: vec![first, second],
                    });
                }
            }
        }
        blocks
    }

    #[test]
    fn face_heaps_match_a_search_over_sub_boxes_for_every_small_block() {
        let blocks = every_small_block();
        let checked = agrees_with_search(
            blocks.into_iter().map(|block| vec![block]),
            |blocks| {
                HabaneroTofu::solve(&HabaneroTofuInput {
                    blocks: blocks.clone(),
                })
            },
            |blocks| searched_outcome(blocks),
        );
        // Per shape of v cells, v + v(v − 1)/2 habanero sets; sides 1..=3.
        let expected: u64 = all_vectors(3, 2)
            .map(|s| (s[0] + 1) * (s[1] + 1) * (s[2] + 1))
            .map(|v| v + v * (v - 1) / 2)
            .sum();
        assert_eq!(checked as u64, expected);
    }

    fn random_block(rng: &mut SeededRng, max_side: u64) -> Block {
        let size = [
            rng.range(1, max_side),
            rng.range(1, max_side),
            rng.range(1, max_side),
        ];
        let m = rng.range(1, 2);
        let habaneros = (0..m)
            .map(|_| {
                [
                    rng.range(0, size[0] - 1),
                    rng.range(0, size[1] - 1),
                    rng.range(0, size[2] - 1),
                ]
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        Block { size, habaneros }
    }

    #[test]
    fn a_single_centred_habanero_is_a_loss() {
        let input = HabaneroTofu::parse("1\n3 3 3\n1\n1 1 1\n").unwrap();
        assert_eq!(HabaneroTofu::format(&HabaneroTofu::solve(&input)), "LOSE\n");
    }

    #[test]
    fn every_generated_input_is_valid() {
        for kind in TestKind::ALL {
            for seed in 0..5 {
                let text = HabaneroTofu::generate(kind, &mut SeededRng::new(seed));
                assert!(HabaneroTofu::parse(&text).is_ok(), "{kind} {seed}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random blocks from proptest's own generator (up to 2 blocks of side ≤ 4).
        #[test]
        fn face_heaps_match_a_search_over_sub_boxes_for_random_blocks(seed in any::<u64>()) {
            let mut rng = SeededRng::new(seed);
            let blocks: Vec<Block> = (0..rng.range(1, 2)).map(|_| random_block(&mut rng, 4)).collect();
            agrees_with_search(
                [blocks],
                |blocks| HabaneroTofu::solve(&HabaneroTofuInput { blocks: blocks.clone() }),
                |blocks| searched_outcome(blocks),
            );
        }
    }
}
