#!/usr/bin/env python3
# Kattis output validator (the judge) of habanero-tofu-play: ARC013 C's tofu
# blocks, a move cutting a habanero-free slab off one face of one block, the
# judge playing Bouton's winning move on the 6N face distances, as nimjudge's
# referee does (src/solver/habanero_tofu_play.rs, face_heaps in
# src/solver/habanero_tofu.rs); the protocol and the
# shared moves are nimjudge_interactor's
# (src/kattis/nimjudge_interactor.py, shipped beside this file).

from nimjudge_interactor import Foul, judge, unsigned, words

FACES = ["x = 0", "x = X − 1", "y = 0", "y = Y − 1", "z = 0", "z = Z − 1"]


def face_heaps(block):
    """The six face distances of a block: lower and upper gap on each axis."""
    size, habaneros = block
    heaps = []
    for axis in range(3):
        heaps.append(min(cell[axis] for cell in habaneros))
        heaps.append(size[axis] - 1 - max(cell[axis] for cell in habaneros))
    return heaps


def heaps_of(blocks):
    """Every face distance of every block, block by block."""
    return [h for block in blocks for h in face_heaps(block)]


def cut_of(heap, thickness):
    """(block from 0, face from 0, thickness)."""
    return heap // 6, heap % 6, thickness


class HabaneroTofuPlay:
    STUCK = "every cut left to you holds a habanero: you lost"

    def read_games(self, tokens):
        games = []
        for _ in range(tokens.int()):
            blocks = []
            for _ in range(tokens.int()):
                size = [tokens.int() for _ in range(3)]
                # nimjudge keeps a block's cells sorted.
                habaneros = sorted([tokens.int() for _ in range(3)] for _ in range(tokens.int()))
                blocks.append((size, habaneros))
            games.append(blocks)
        return games

    def write_start(self, blocks):
        lines = [str(len(blocks))]
        for size, habaneros in blocks:
            lines.append(" ".join(map(str, size)))
            lines.append(str(len(habaneros)))
            lines.extend(" ".join(map(str, cell)) for cell in habaneros)
        return "".join(line + "\n" for line in lines)

    def parse_move(self, line):
        parts = words(line)
        if len(parts) != 3:
            raise Foul("expected three integers `b f t`")
        numbers = []
        for word, name in zip(parts, "bft"):
            value = unsigned(word)
            if value is None:
                raise Foul(f"`{name}` must be a non-negative integer")
            numbers.append(value)
        b, f, t = numbers
        if not 1 <= f <= 6:
            raise Foul(f"`f` is a face from 1 to 6, not {f}")
        # Block 0 (here -1) is out of range; checked as a move, not as a form.
        return b - 1, f - 1, t

    def check_move(self, blocks, cut):
        block, face, thickness = cut
        if not 0 <= block < len(blocks):
            raise Foul(f"there is no block {block + 1} (the blocks are 1 to {len(blocks)})")
        if thickness == 0:
            raise Foul("a cut is at least one cell thick")
        free = face_heaps(blocks[block])[face]
        if thickness > free:
            raise Foul(
                f"a slab {thickness} thick off face {face + 1} ({FACES[face]}) of block {block + 1} "
                f"holds a habanero (at most {free} is free): eating it loses"
            )

    def play(self, blocks, cut):
        block, face, thickness = cut
        size, habaneros = blocks[block]
        axis = face // 2
        size[axis] -= thickness
        if face % 2 == 0:
            # A cut off a low face renumbers the cells.
            for cell in habaneros:
                cell[axis] -= thickness
        return blocks

    def write_move(self, cut):
        block, face, thickness = cut
        return f"{block + 1} {face + 1} {thickness}"

    def winning_move(self, blocks):
        heaps = heaps_of(blocks)
        x = 0
        for h in heaps:
            x ^= h
        if x == 0:
            return None
        for i, h in enumerate(heaps):
            if h ^ x < h:
                return cut_of(i, h - (h ^ x))
        return None

    def any_move(self, blocks, rng):
        heaps = heaps_of(blocks)
        open_heaps = [i for i, h in enumerate(heaps) if h > 0]
        if not open_heaps:
            return None
        heap = rng.pick(open_heaps)
        return cut_of(heap, rng.range(1, heaps[heap]))


GAME = HabaneroTofuPlay()

if __name__ == "__main__":
    judge(GAME)
