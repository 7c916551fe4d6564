# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The inner loop of the exact Dots and Boxes search (:class:`~core.ai.boxes.solver.Solver`)
in C, built by Cython as part of the optional compiled build (``make compiled``).

It is :meth:`Solver.value` with everything below it — forced captures, the take-or-decline
choices, safe lines, chain and loop offers, sacrifices valued by one search of the rest —
done on C arrays and 128-bit line masks instead of Python lists and ints, so a node costs
no Python object but the transposition table's key and entry. It searches exactly as the
Python does: the same moves in the same order, the same table (the solver's own dict,
read and written as the Python writes it), the same node count and the same budget
checks, so its values, its best lines and where a budget stops it are the Python's.
``tests/core/test_ai_boxes_compiled.py`` checks that against the pure build.

Boards of at most 128 lines and 64 boxes (7×7 and smaller) that are not reduced by
symmetry are searched here (:func:`supports`); the Python serves the rest.
"""

from libc.string cimport memcpy

cdef extern from *:
    """
    #include <string.h>
    typedef unsigned __int128 tetrad_mask;
    static inline int mask_count(tetrad_mask m) {
        return __builtin_popcountll((unsigned long long)m)
            + __builtin_popcountll((unsigned long long)(m >> 64));
    }
    static inline int mask_low(tetrad_mask m) {
        unsigned long long low = (unsigned long long)m;
        return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((unsigned long long)(m >> 64));
    }
    static inline int mask_high(tetrad_mask m) {
        unsigned long long high = (unsigned long long)(m >> 64);
        return high ? 127 - __builtin_clzll(high)
                    : 63 - __builtin_clzll((unsigned long long)m);
    }
    static inline tetrad_mask mask_bit(int index) { return ((tetrad_mask)1) << index; }
    static inline tetrad_mask mask_join(unsigned long long low, unsigned long long high) {
        return ((tetrad_mask)high << 64) | low;
    }
    static inline PyObject *mask_to_int(tetrad_mask m) {
        unsigned char bytes[16];
        memcpy(bytes, &m, 16);
        return _PyLong_FromByteArray(bytes, 16, 1, 0);
    }
    """
    # Cython sees a 64-bit type; the C compiler the 128-bit one. Masks are only ever made,
    # combined and read through these functions and C operators, never converted by Cython.
    ctypedef unsigned long long mask_t "tetrad_mask"
    int mask_count(mask_t m) nogil
    int mask_low(mask_t m) nogil
    int mask_high(mask_t m) nogil
    mask_t mask_bit(int index) nogil
    mask_t mask_join(unsigned long long low, unsigned long long high) nogil
    object mask_to_int(mask_t m)

cdef enum:
    MAX_BOXES = 64
    MAX_LINES = 128
    MAX_CHOICES = 2 * MAX_BOXES + 2
    GROUND = -1
    CHAIN = 0
    LOOP = 1
    CLOSED_CHAIN = 2
    INDEX_BITS = 16
    NEGATIVE_INFINITY = -(1 << 20)
    FAILED = -(1 << 30)  # what a search function returns when it raised SearchTimeout

LOW_WORD = (1 << 64) - 1


ctypedef struct Offers:
    # One sacrifice per chain and loop, as analysis.Offers holds them.
    int count
    short lines[MAX_BOXES]
    unsigned char sizes[MAX_BOXES]
    unsigned char kinds[MAX_BOXES]
    signed char first_end[MAX_BOXES]
    signed char second_end[MAX_BOXES]
    unsigned char order[MAX_BOXES]
    mask_t masks[MAX_BOXES]


def supports(t) -> bool:
    """Whether the kernel can search the board of tables ``t``."""
    return (
        not t.symmetric
        and t.geo.line_count <= MAX_LINES
        and len(t.sides) <= MAX_BOXES
    )


cdef mask_t to_mask(object value) except *:
    return mask_join(value & LOW_WORD, value >> 64)


cdef class Kernel:
    """The exact search of one board, for one :class:`Solver` (one search at a time)."""

    cdef int boxes
    cdef mask_t all_lines
    cdef mask_t sides[MAX_BOXES]
    cdef int across[MAX_LINES]
    cdef signed char first_box[MAX_LINES]
    cdef signed char second_box[MAX_LINES]
    cdef dict table
    cdef object clock
    cdef object deadline
    cdef object timeout
    cdef object simple_value
    cdef long long nodes
    cdef long long node_limit
    cdef bint limited
    cdef bint timed
    cdef long long check_every

    def __init__(self, t, timeout, simple_value):
        """Copy the board's tables; ``timeout`` is the exception a spent budget raises and
        ``simple_value`` values an endgame of independent chains and loops."""
        cdef int box, line
        if not supports(t):
            raise ValueError("the kernel searches boards of 128 lines and 64 boxes at most")
        self.boxes = len(t.sides)
        self.all_lines = to_mask(t.geo.all_lines)
        for box in range(self.boxes):
            self.sides[box] = to_mask(t.sides[box])
        for line in range(t.geo.line_count):
            self.across[line] = t.across[line]
            found = t.line_boxes[line]
            self.first_box[line] = found[0]
            self.second_box[line] = found[1] if len(found) > 1 else GROUND
        self.timeout = timeout
        self.simple_value = simple_value

    def value(self, solver, drawn, int alpha, int beta, counts) -> int:
        """:meth:`Solver.value` of ``drawn`` in the window, ``counts`` its side counts or
        None; spends ``solver.budget`` and fills ``solver.table`` as the Python does."""
        cdef unsigned char own_counts[MAX_BOXES]
        cdef unsigned char *given = NULL
        cdef int box, result
        budget = solver.budget
        self.table = solver.table
        self.nodes = budget.nodes
        self.limited = budget.node_limit is not None
        self.node_limit = budget.node_limit if self.limited else 0
        self.timed = budget.deadline is not None
        self.deadline = budget.deadline
        self.clock = budget.clock
        self.check_every = budget.CHECK_EVERY
        if counts is not None:
            for box in range(self.boxes):
                own_counts[box] = counts[box]
            given = own_counts
        try:
            result = self.search(to_mask(drawn), alpha, beta, given, NULL, -1)
        finally:
            budget.nodes = self.nodes
            self.table = None
            self.clock = None
            self.deadline = None
        return result

    cdef int spend(self) except -1:
        self.nodes += 1
        if self.limited and self.nodes > self.node_limit:
            raise self.timeout
        if self.timed and self.nodes % self.check_every == 0 and self.clock() > self.deadline:
            raise self.timeout
        return 0

    cdef void side_counts(self, mask_t drawn, unsigned char *counts) noexcept:
        cdef int box
        for box in range(self.boxes):
            counts[box] = mask_count(drawn & self.sides[box])

    cdef int completed_by(self, mask_t after, int line) noexcept:
        cdef int completed = 0
        cdef int box = self.first_box[line]
        if after & self.sides[box] == self.sides[box]:
            completed += 1
        box = self.second_box[line]
        if box != GROUND and after & self.sides[box] == self.sides[box]:
            completed += 1
        return completed

    cdef void add_line(self, unsigned char *counts, int line) noexcept:
        counts[self.first_box[line]] += 1
        if self.second_box[line] != GROUND:
            counts[self.second_box[line]] += 1

    cdef mask_t unsafe(self, unsigned char *counts) noexcept:
        cdef mask_t mask = 0
        cdef int box
        for box in range(self.boxes):
            if counts[box] >= 2:
                mask |= self.sides[box]
        return mask

    cdef int capture_choices(self, mask_t drawn, unsigned char *counts, int *out) noexcept:
        """analysis.capture_choices: the lines into ``out``, how many there are."""
        cdef int declines[MAX_CHOICES]
        cdef int chosen = 0, declined = 0, box, line, nxt, beyond_line, after, far_box, index
        cdef mask_t last, beyond_mask, far_mask
        cdef int total
        for box in range(self.boxes):
            if counts[box] != 3:
                continue
            last = self.sides[box] & ~drawn
            line = mask_high(last)
            nxt = self.across[line] ^ box
            if nxt == GROUND or counts[nxt] != 2:
                out[0] = line
                return 1
            beyond_mask = self.sides[nxt] & ~drawn & ~last
            beyond_line = mask_high(beyond_mask)
            after = self.across[beyond_line] ^ nxt
            if after != GROUND and counts[after] == 2:
                far_mask = self.sides[after] & ~drawn & ~beyond_mask
                far_box = self.across[mask_high(far_mask)] ^ after
                if far_box == GROUND or counts[far_box] != 3:
                    out[0] = line
                    return 1
                if not holds(declines, declined, beyond_line):
                    declines[declined] = beyond_line
                    declined += 1
            elif after == GROUND or counts[after] <= 1:
                declines[declined] = beyond_line
                declined += 1
            if not holds(out, chosen, line):
                out[chosen] = line
                chosen += 1
        total = chosen
        for index in range(declined):
            if not holds(out, chosen, declines[index]):
                out[total] = declines[index]
                total += 1
        return total

    cdef mask_t take_forced(
        self, mask_t drawn, unsigned char *counts, int *gained, int *choices, int *count
    ) noexcept:
        """solver.take_forced, changing ``counts`` in place."""
        cdef int line
        while True:
            count[0] = self.capture_choices(drawn, counts, choices)
            if count[0] != 1:
                return drawn
            line = choices[0]
            drawn |= mask_bit(line)
            gained[0] += self.completed_by(drawn, line)
            self.add_line(counts, line)

    cdef void chain_offers(self, mask_t drawn, unsigned char *counts, Offers *offers) noexcept:
        """analysis.chain_offers."""
        cdef unsigned char seen[MAX_BOXES]
        cdef int ranked[MAX_BOXES]
        cdef int start, count, length, centre, outer, kind, half, first_line, line, run, box
        cdef int ends[2]
        cdef int index, moving, entry
        cdef mask_t mask, free
        cdef int found = 0
        for start in range(self.boxes):
            seen[start] = 0
        for start in range(self.boxes):
            count = counts[start]
            if seen[start] or not 2 <= count <= 3:
                continue
            seen[start] = 1
            length = 1
            centre = -1
            outer = -1
            mask = 0
            ends[0] = GROUND
            ends[1] = GROUND
            kind = CHAIN
            half = 0
            free = self.sides[start] & ~drawn
            while free:
                first_line = mask_low(free)
                free &= free - 1
                line = first_line
                mask |= mask_bit(line)
                run = 0
                box = self.across[line] ^ start
                while box != GROUND:
                    if box == start:
                        kind = LOOP
                        outer = first_line
                        break
                    if counts[box] <= 1:
                        if box == ends[0]:
                            kind = CLOSED_CHAIN
                        ends[half] = box
                        break
                    run += 1
                    seen[box] = 1
                    if counts[box] == 3:
                        break
                    line = mask_high(self.sides[box] & ~drawn & ~mask_bit(line))
                    mask |= mask_bit(line)
                    box = self.across[line] ^ box
                length += run
                if kind == LOOP:
                    break
                if outer < 0:
                    outer = line
                if run == 1:
                    centre = first_line
                half += 1
            ranked[found] = ((length + 1 if kind == LOOP else length) << INDEX_BITS) | found
            offers.lines[found] = centre if length == 2 and kind != LOOP else outer
            offers.sizes[found] = length
            offers.masks[found] = mask
            offers.kinds[found] = kind
            offers.first_end[found] = ends[0]
            offers.second_end[found] = ends[1]
            found += 1
        # Sorted as the Python sorts its ranked ints (all distinct, so any sort agrees).
        for index in range(1, found):
            entry = ranked[index]
            moving = index - 1
            while moving >= 0 and ranked[moving] > entry:
                ranked[moving + 1] = ranked[moving]
                moving -= 1
            ranked[moving + 1] = entry
        for index in range(found):
            offers.order[index] = ranked[index] & ((1 << INDEX_BITS) - 1)
        offers.count = found

    cdef bint without(
        self, Offers *offers, int given, unsigned char *counts, Offers *result
    ) noexcept:
        """Offers.without into ``result``; False where the Python returns None."""
        cdef int end, index, kept = 0
        end = offers.first_end[given]
        if end != GROUND and counts[end] == 2:
            return False
        end = offers.second_end[given]
        if end != GROUND and counts[end] == 2:
            return False
        for index in range(offers.count):
            if index == given:
                continue
            result.lines[kept] = offers.lines[index]
            result.sizes[kept] = offers.sizes[index]
            result.masks[kept] = offers.masks[index]
            result.kinds[kept] = offers.kinds[index]
            result.first_end[kept] = offers.first_end[index]
            result.second_end[kept] = offers.second_end[index]
            kept += 1
        kept = 0
        for index in range(offers.count):
            end = offers.order[index]
            if end != given:
                result.order[kept] = end - (1 if end > given else 0)
                kept += 1
        result.count = kept
        return True

    cdef int simple_endgame(self, Offers *offers) except? FAILED:
        cdef int index
        chains = []
        loops = []
        for index in range(offers.count):
            if offers.kinds[index] == LOOP:
                loops.append(offers.sizes[index])
            else:
                chains.append(offers.sizes[index])
        return self.simple_value(tuple(chains), tuple(loops))

    cdef int safe_in_order(self, mask_t safe, unsigned char *counts, int *out) noexcept:
        """solver.safe_lines_in_order: lines giving two boxes their second side, then one,
        then none, each group in increasing order (the Python's stable sort)."""
        cdef int total = 0, wanted, line, ones
        cdef mask_t rest
        for wanted in range(2, -1, -1):
            rest = safe
            while rest:
                line = mask_low(rest)
                rest &= rest - 1
                ones = 1 if counts[self.first_box[line]] == 1 else 0
                if self.second_box[line] != GROUND and counts[self.second_box[line]] == 1:
                    ones += 1
                if ones == wanted:
                    out[total] = line
                    total += 1
        return total

    cdef int line_value(
        self, mask_t drawn, int line, int alpha, int beta, unsigned char *counts
    ) except? FAILED:
        """The value of drawing ``line`` for the player who draws it (Solver.line_value)."""
        cdef unsigned char after_counts[MAX_BOXES]
        cdef mask_t after = drawn | mask_bit(line)
        cdef int completed = self.completed_by(after, line)
        memcpy(after_counts, counts, self.boxes)
        self.add_line(after_counts, line)
        if completed:
            return completed + self.search(
                after, alpha - completed, beta - completed, after_counts, NULL, -1
            )
        return -self.search(after, -beta, -alpha, after_counts, NULL, -1)

    cdef int search(
        self,
        mask_t drawn,
        int alpha,
        int beta,
        unsigned char *given_counts,
        Offers *given_offers,
        int taken,
    ) except? FAILED:
        """Solver.value, line for line."""
        cdef unsigned char counts[MAX_BOXES]
        cdef int moves[MAX_CHOICES]
        cdef int move_count = 0, gained = 0, remaining, low, high, best, start_alpha
        cdef int index, move, score, exact, box
        cdef bint pending = False, stopped = False
        cdef mask_t safe = 0
        cdef Offers own
        cdef Offers sacrifices
        cdef Offers *offers = NULL
        self.spend()
        if given_offers == NULL or given_counts == NULL:
            if given_counts == NULL:
                self.side_counts(drawn, counts)
            else:
                memcpy(counts, given_counts, self.boxes)
            drawn = self.take_forced(drawn, counts, &gained, moves, &move_count)
            if drawn == self.all_lines:
                return gained
        else:
            memcpy(counts, given_counts, self.boxes)
        alpha -= gained
        beta -= gained
        remaining = 0
        for box in range(self.boxes):
            if counts[box] != 4:
                remaining += 1
        if alpha >= remaining:
            return gained + remaining
        if beta <= -remaining:
            return gained - remaining
        key = mask_to_int(drawn)
        entry = self.table.get(key)
        if entry is None:
            low = -remaining
            high = remaining
        else:
            low = entry[0]
            high = entry[1]
        if low >= beta or low == high:
            return gained + low
        if high <= alpha:
            return gained + high
        if low > alpha:
            alpha = low
        if high < beta:
            beta = high
        if given_offers != NULL:
            if taken < 0:
                offers = given_offers
            elif self.without(given_offers, taken, counts, &own):
                offers = &own
        if offers == NULL and move_count == 0:
            safe = self.all_lines & ~drawn & ~self.unsafe(counts)
            if not safe:
                self.chain_offers(drawn, counts, &own)
                offers = &own
        if move_count:
            offers = NULL
        elif offers != NULL:
            if (
                all_ground(offers.first_end, offers.count)
                and all_ground(offers.second_end, offers.count)
            ):
                exact = self.simple_endgame(offers)
                self.table[key] = (exact, exact)
                return gained + exact
            move_count = offers.count
            for index in range(move_count):
                moves[index] = offers.order[index]
        else:
            move_count = self.safe_in_order(safe, counts, moves)
            pending = True
        best = NEGATIVE_INFINITY
        start_alpha = alpha
        for index in range(move_count):
            move = moves[index]
            if offers != NULL and offers.kinds[move] != CLOSED_CHAIN:
                score = self.sacrifice_value(drawn, counts, offers, move, alpha, beta)
            else:
                score = self.line_value(
                    drawn, move if offers == NULL else offers.lines[move], alpha, beta, counts
                )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        stopped = True
                        break
        if pending and not stopped:
            # The sacrifices, found only now (as the Python's then_sacrifices does).
            self.chain_offers(drawn, counts, &sacrifices)
            for index in range(sacrifices.count):
                score = self.line_value(
                    drawn, sacrifices.lines[sacrifices.order[index]], alpha, beta, counts
                )
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
        if best <= start_alpha:
            self.table[key] = (low, best)
        elif best >= beta:
            self.table[key] = (best, high)
        else:
            self.table[key] = (best, best)
        return gained + best

    cdef int sacrifice_value(
        self,
        mask_t drawn,
        unsigned char *counts,
        Offers *offers,
        int given,
        int alpha,
        int beta,
    ) except? FAILED:
        """Solver.sacrifice_value."""
        cdef unsigned char rest_counts[MAX_BOXES]
        cdef mask_t lines = offers.masks[given]
        cdef int size = offers.sizes[given]
        cdef bint loop = offers.kinds[given] == LOOP
        cdef mask_t rest = drawn | lines
        cdef mask_t each = lines
        cdef int handed, declined, value
        memcpy(rest_counts, counts, self.boxes)
        while each:
            self.add_line(rest_counts, mask_low(each))
            each &= each - 1
        if not loop and size <= 2:
            return -size - self.search(rest, -size - beta, -size - alpha, rest_counts, offers, given)
        handed = 4 if loop else 2
        if alpha >= handed - size:
            return handed - size
        declined = 2 * handed - size
        value = self.search(rest, alpha - declined, -size - alpha, rest_counts, offers, given)
        if value <= alpha - declined:
            return declined + value
        if value >= -size - alpha:
            return -size - value
        return min(-size - value, declined + value)


cdef inline bint holds(int *values, int count, int value) noexcept:
    cdef int index
    for index in range(count):
        if values[index] == value:
            return True
    return False


cdef inline bint all_ground(signed char *ends, int count) noexcept:
    cdef int index
    for index in range(count):
        if ends[index] != GROUND:
            return False
    return True
