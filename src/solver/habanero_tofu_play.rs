//! `habanero-tofu-play`: AtCoder ARC013 C 「笑いをとれるかな？」, played
//! against the judge (see [`super::interactive`] for the protocol).
//!
//! A testcase is `G` games, each a case of `habanero-tofu`'s input (`N`
//! blocks, each `X Y Z`, `M` and `M` habanero cells), with smaller bounds.
//! A move is `b f t`: cut a slab `t ≥ 1` cells thick off face `f` of block
//! `b` and eat it; the faces are 1 (`x = 0`), 2 (`x = X − 1`), 3 (`y = 0`),
//! 4 (`y = Y − 1`), 5 (`z = 0`) and 6 (`z = Z − 1`). Eating a habanero
//! loses on the spot, so a slab that holds one is not a move: the player
//! with no safe cut loses. A cut off a low face renumbers the cells (the
//! block's corner stays at 0). A game ends within `Σ(X + Y + Z) ≤ 3,000`
//! moves.
//!
//! The judge's winning move is Bouton's on the `6N` face distances of
//! `habanero-tofu` ([`face_heaps`]): a cut `t` off a face shrinks its
//! distance by `t` and leaves the other five as they were.

use super::{
    Outcome, Problem, SeededRng, TestKind,
    habanero_tofu::{Block, CaseLimits, face_heaps, scan_case},
    input::{InputError, Scanner},
    interactive::{Game, Match, Practice, Practiced, Referee, read_games, xor_conclusion},
    nim_play::xor_text,
    outcome_lines, push_numbers, push_u64,
};

pub const MAX_GAMES: usize = 10;
pub const MAX_N: usize = 10;
pub const MAX_SIDE: u64 = 100;
pub const MAX_TOTAL_M: usize = 100;

const LIMITS: CaseLimits = CaseLimits {
    n: MAX_N,
    side: MAX_SIDE,
    total_m: MAX_TOTAL_M,
};

const FACES: [&str; 6] = ["x = 0", "x = X − 1", "y = 0", "y = Y − 1", "z = 0", "z = Z − 1"];

pub struct HabaneroTofuPlay;

/// A cut: a slab `thickness` cells thick off face `face` (0 to 5) of block
/// `block` (from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    pub block: usize,
    pub face: usize,
    pub thickness: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HabaneroTofuPlayInput {
    pub games: Vec<Vec<Block>>,
}

/// Every face distance of every block, block by block.
fn heaps(blocks: &[Block]) -> Vec<u64> {
    blocks.iter().flat_map(face_heaps).collect()
}

fn cut_of(heap: usize, thickness: u64) -> Cut {
    Cut {
        block: heap / 6,
        face: heap % 6,
        thickness,
    }
}

fn scan_blocks(s: &mut Scanner<'_>) -> Result<Vec<Block>, InputError> {
    Ok(scan_case(s, &LIMITS)?.blocks)
}

impl Game for HabaneroTofuPlay {
    type Position = Vec<Block>;
    type Move = Cut;
    const MOVE_FORMAT: &'static str = "b f t (cut a slab t thick off face f of block b)";
    const STUCK: &'static str = "every cut left to you holds a habanero: you lost";

    fn write_position(blocks: &Vec<Block>, out: &mut String) {
        push_numbers(out, [blocks.len() as u64]);
        for block in blocks {
            push_numbers(out, block.size);
            push_numbers(out, [block.habaneros.len() as u64]);
            for cell in &block.habaneros {
                push_numbers(out, *cell);
            }
        }
    }

    fn parse_move(line: &str) -> Result<Cut, String> {
        let mut words = line.split_ascii_whitespace();
        let (Some(b), Some(f), Some(t), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err("expected three integers `b f t`".to_string());
        };
        let number = |word: &str, name: &str| {
            word.parse::<u64>()
                .map_err(|_| format!("`{name}` must be a non-negative integer"))
        };
        let (b, f, t) = (number(b, "b")?, number(f, "f")?, number(t, "t")?);
        if !(1..=6).contains(&f) {
            return Err(format!("`f` is a face from 1 to 6, not {f}"));
        }
        Ok(Cut {
            // Block 0 is out of range; checked as a move, not as a form.
            block: usize::try_from(b).unwrap_or(usize::MAX).wrapping_sub(1),
            face: f as usize - 1,
            thickness: t,
        })
    }

    fn check_move(blocks: &Vec<Block>, cut: Cut) -> Result<(), String> {
        let Some(block) = blocks.get(cut.block) else {
            return Err(format!(
                "there is no block {} (the blocks are 1 to {})",
                cut.block.wrapping_add(1),
                blocks.len()
            ));
        };
        if cut.thickness == 0 {
            return Err("a cut is at least one cell thick".to_string());
        }
        let free = face_heaps(block)[cut.face];
        if cut.thickness > free {
            return Err(format!(
                "a slab {} thick off face {} ({}) of block {} holds a habanero (at most {free} is free): eating it loses",
                cut.thickness,
                cut.face + 1,
                FACES[cut.face],
                cut.block + 1
            ));
        }
        Ok(())
    }

    fn play(blocks: &mut Vec<Block>, cut: Cut) {
        let block = &mut blocks[cut.block];
        let axis = cut.face / 2;
        block.size[axis] -= cut.thickness;
        if cut.face.is_multiple_of(2) {
            for cell in &mut block.habaneros {
                cell[axis] -= cut.thickness;
            }
        }
    }

    fn write_move(cut: Cut, out: &mut String) {
        push_u64(out, cut.block as u64 + 1);
        out.push(' ');
        push_u64(out, cut.face as u64 + 1);
        out.push(' ');
        push_u64(out, cut.thickness);
    }

    fn winning_move(blocks: &Vec<Block>) -> Option<Cut> {
        let heaps = heaps(blocks);
        let x = heaps.iter().fold(0, |x, &h| x ^ h);
        if x == 0 {
            return None;
        }
        let heap = heaps.iter().position(|&h| h ^ x < h)?;
        Some(cut_of(heap, heaps[heap] - (heaps[heap] ^ x)))
    }

    fn any_move(blocks: &Vec<Block>, rng: &mut SeededRng) -> Option<Cut> {
        let heaps = heaps(blocks);
        let open: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
        if open.is_empty() {
            return None;
        }
        let heap = *rng.pick(&open);
        Some(cut_of(heap, rng.range(1, heaps[heap])))
    }

    fn parse_position(text: &str) -> Result<Vec<Block>, InputError> {
        let mut s = Scanner::new(text);
        let blocks = scan_blocks(&mut s)?;
        s.finish()?;
        Ok(blocks)
    }

    fn deal(rng: &mut SeededRng) -> Vec<Block> {
        (0..rng.range_usize(1, 2))
            .map(|_| {
                let size = [rng.range(2, 6), rng.range(2, 6), rng.range(1, 4)];
                let mut habaneros: Vec<[u64; 3]> = (0..rng.range_usize(1, 2))
                    .map(|_| size.map(|side| rng.range(0, side - 1)))
                    .collect();
                habaneros.sort_unstable();
                habaneros.dedup();
                Block { size, habaneros }
            })
            .collect()
    }

    fn winning_moves(blocks: &Vec<Block>) -> Vec<Cut> {
        let heaps = heaps(blocks);
        let x = heaps.iter().fold(0, |x, &h| x ^ h);
        if x == 0 {
            return Vec::new();
        }
        (0..heaps.len())
            .filter(|&i| heaps[i] ^ x < heaps[i])
            .map(|i| cut_of(i, heaps[i] - (heaps[i] ^ x)))
            .collect()
    }

    fn explain(blocks: &Vec<Block>) -> Vec<String> {
        let heaps = heaps(blocks);
        let x = heaps.iter().fold(0, |x, &h| x ^ h);
        let mut lines = vec![
            "A safe cut stays outside the box around a block's habaneros, so each face is a Nim pile: the free distance from it to that box (faces 1 to 6: x = 0, x = X − 1, y = 0, y = Y − 1, z = 0, z = Z − 1).".to_string(),
        ];
        for (b, six) in heaps.chunks(6).enumerate() {
            let six: Vec<String> = six.iter().map(u64::to_string).collect();
            lines.push(format!("Block {}: faces 1 to 6 are worth {}.", b + 1, six.join(", ")));
        }
        lines.push(format!("The XOR of all of them: {}.", xor_text(&heaps)));
        lines.push(xor_conclusion(x != 0, "cut a face whose distance d has d ⊕ x < d down to d ⊕ x."));
        lines
    }
}

impl Problem for HabaneroTofuPlay {
    const ID: &'static str = "habanero-tofu-play";
    const INTERACTIVE: bool = true;
    type Input = HabaneroTofuPlayInput;
    type Output = Vec<Outcome>;

    fn parse(text: &str) -> Result<HabaneroTofuPlayInput, InputError> {
        Ok(HabaneroTofuPlayInput {
            games: read_games(text, MAX_GAMES, |s, _| scan_blocks(s))?,
        })
    }

    /// Which side wins each game.
    fn solve(input: &HabaneroTofuPlayInput) -> Vec<Outcome> {
        input
            .games
            .iter()
            .map(|blocks| Outcome::from_first_wins(heaps(blocks).iter().fold(0, |x, &h| x ^ h) != 0))
            .collect()
    }

    fn format(output: &Vec<Outcome>) -> String {
        outcome_lines(output, "First", "Second")
    }

    fn generate(kind: TestKind, rng: &mut SeededRng) -> String {
        // (games, blocks, side, habaneros a block)
        let (count, max_n, max_side, max_m) = match kind {
            TestKind::Small => (6, 2, 4, 2),
            TestKind::Edge => (4, MAX_N, MAX_SIDE, 1),
            TestKind::Random => (6, MAX_N, MAX_SIDE, MAX_TOTAL_M / MAX_N),
            TestKind::Max => (MAX_GAMES, MAX_N, MAX_SIDE, MAX_TOTAL_M / MAX_N),
        };
        let games: Vec<Vec<Block>> = (0..count)
            .map(|index| {
                if kind == TestKind::Edge {
                    let side = [1, MAX_SIDE, MAX_SIDE, 2][index];
                    let n = [1, 1, MAX_N, 2][index];
                    return (0..n)
                        .map(|_| Block {
                            size: [side; 3],
                            habaneros: vec![[side / 2; 3]],
                        })
                        .collect();
                }
                let n = if kind == TestKind::Max { max_n } else { rng.range_usize(1, max_n) };
                (0..n)
                    .map(|_| {
                        let low = if kind == TestKind::Max { max_side / 2 } else { 1 };
                        let size = [0; 3].map(|_| rng.range(low, max_side));
                        let mut habaneros: Vec<[u64; 3]> = (0..rng.range_usize(1, max_m))
                            .map(|_| size.map(|side| rng.range(0, side - 1)))
                            .collect();
                        habaneros.sort_unstable();
                        habaneros.dedup();
                        Block { size, habaneros }
                    })
                    .collect()
            })
            .collect();
        let mut out = String::new();
        push_numbers(&mut out, [games.len() as u64]);
        for blocks in &games {
            HabaneroTofuPlay::write_position(blocks, &mut out);
        }
        out
    }

    fn referee(input: &HabaneroTofuPlayInput, seed: u64) -> Option<Box<dyn Referee>> {
        Some(Box::new(Match::<HabaneroTofuPlay>::new(
            input.games.clone(),
            seed,
        )))
    }

    fn practice() -> Option<&'static dyn Practice> {
        Some(&Practiced::<HabaneroTofuPlay>::NEW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{grundy::WinLoseSearch, interactive::check_strategy};

    /// Every cut, from the rules: a slab off a face that holds no habanero
    /// (nothing of Nim or face distances).
    fn rule_cuts(blocks: &[Block]) -> Vec<Cut> {
        let mut cuts = Vec::new();
        for (b, block) in blocks.iter().enumerate() {
            for face in 0..6 {
                let axis = face / 2;
                for thickness in 1..block.size[axis] {
                    let eaten = |c: &[u64; 3]| {
                        if face % 2 == 0 {
                            c[axis] < thickness
                        } else {
                            c[axis] >= block.size[axis] - thickness
                        }
                    };
                    if !block.habaneros.iter().any(eaten) {
                        cuts.push(Cut {
                            block: b,
                            face,
                            thickness,
                        });
                    }
                }
            }
        }
        cuts
    }

    fn candidate_cuts(blocks: &[Block]) -> Vec<Cut> {
        let mut cuts = Vec::new();
        for block in 0..=blocks.len() {
            for face in 0..6 {
                for thickness in 0..=4 {
                    cuts.push(Cut {
                        block,
                        face,
                        thickness,
                    });
                }
            }
        }
        cuts
    }

    /// Every block up to 4×3×2 with one or two habaneros, alone and
    /// beside a small second block, against a search over the blocks
    /// themselves (cuts and renumbered cells, no face distances).
    #[test]
    fn the_judge_wins_every_winning_position_against_every_reply() {
        let mut singles = Vec::new();
        for (x, y, z) in [(1, 1, 1), (2, 1, 1), (3, 2, 1), (4, 3, 2), (3, 3, 1), (2, 2, 2)] {
            let cells: Vec<[u64; 3]> = (0..x)
                .flat_map(|a| (0..y).flat_map(move |b| (0..z).map(move |c| [a, b, c])))
                .collect();
            for (i, &first) in cells.iter().enumerate() {
                singles.push(Block {
                    size: [x, y, z],
                    habaneros: vec![first],
                });
                for &second in &cells[i + 1..] {
                    singles.push(Block {
                        size: [x, y, z],
                        habaneros: vec![first, second],
                    });
                }
            }
        }
        let small = Block {
            size: [3, 2, 1],
            habaneros: vec![[1, 0, 0]],
        };
        let starts: Vec<Vec<Block>> = singles
            .iter()
            .map(|b| vec![b.clone()])
            .chain(singles.iter().map(|b| vec![b.clone(), small.clone()]))
            .collect();
        let count = starts.len();
        let search = std::cell::RefCell::new(WinLoseSearch::normal_play(|blocks: &Vec<Block>| {
            rule_cuts(blocks)
                .into_iter()
                .map(|cut| {
                    let mut next = blocks.clone();
                    HabaneroTofuPlay::play(&mut next, cut);
                    next
                })
                .collect::<Vec<_>>()
        }));
        let visited = check_strategy::<HabaneroTofuPlay>(
            starts,
            |blocks| rule_cuts(blocks),
            |blocks| candidate_cuts(blocks),
            |blocks| search.borrow_mut().mover_wins(blocks),
        );
        assert!(visited >= count, "{visited} of {count}");
    }

    #[test]
    fn a_cut_into_a_habanero_is_named() {
        let blocks = HabaneroTofuPlay::parse_position("1\n5 1 1\n1\n2 0 0\n").unwrap();
        let check = |line: &str| {
            let cut = HabaneroTofuPlay::parse_move(line)?;
            HabaneroTofuPlay::check_move(&blocks, cut)
        };
        assert_eq!(check("1 1 2"), Ok(()));
        assert_eq!(
            check("1 1 3").unwrap_err(),
            "a slab 3 thick off face 1 (x = 0) of block 1 holds a habanero (at most 2 is free): eating it loses"
        );
        assert_eq!(check("1 7 1").unwrap_err(), "`f` is a face from 1 to 6, not 7");
        assert_eq!(check("2 1 1").unwrap_err(), "there is no block 2 (the blocks are 1 to 1)");
        assert_eq!(check("1 2").unwrap_err(), "expected three integers `b f t`");
        // A cut off a low face renumbers the cells.
        let mut after = blocks.clone();
        HabaneroTofuPlay::play(&mut after, Cut { block: 0, face: 0, thickness: 2 });
        let mut text = String::new();
        HabaneroTofuPlay::write_position(&after, &mut text);
        assert_eq!(text, "1\n3 1 1\n1\n0 0 0\n");
    }
}
