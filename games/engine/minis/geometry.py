"""The measured battlefield: trays, moves, arcs, distances and line of sight, on shapely (GEOS).

Conventions (SCENARIOS.md "minis", geometry): inches; origin at the first seat's left corner, x to
the right, y towards the second seat. Facings are compass degrees: 0 points to +y, 90 to +x. A pose
is the front-centre of the tray (`at`) and its facing; the tray extends `depth` behind the front
edge. Pivots turn about the tray centre. One tolerance: TOL inches for every length (and ATOL
degree for angles): `a <= b` holds when a <= b + TOL, trays touch when their distance is <= TOL and
overlap when they interpenetrate by more than TOL.

Why shapely: a maintained binding of GEOS, the geometry engine of PostGIS; exact polygon
intersection, distance, union and convex hull, so the engine writes no polygon clipping of its own.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import Any

from shapely import prepared
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

TOL = 0.01
ATOL = 0.01
HALF = TOL / 2
FAR = 500.0  # long enough to leave any table: the arcs' wedges are triangles this long

Pose = tuple[tuple[float, float], float]


def norm_angle(a: float) -> float:
    a = float(a) % 360.0
    if a >= 360.0 - 1e-9:
        a = 0.0
    return a


def direction(facing: float) -> tuple[float, float]:
    r = math.radians(facing)
    return math.sin(r), math.cos(r)


def right_of(facing: float) -> tuple[float, float]:
    r = math.radians(facing)
    return math.cos(r), -math.sin(r)


def centre(at: Sequence[float], facing: float, depth: float) -> tuple[float, float]:
    dx, dy = direction(facing)
    return at[0] - dx * depth / 2, at[1] - dy * depth / 2


def at_from_centre(c: Sequence[float], facing: float, depth: float) -> tuple[float, float]:
    dx, dy = direction(facing)
    return c[0] + dx * depth / 2, c[1] + dy * depth / 2


def corners(at: Sequence[float], facing: float, width: float, depth: float) -> list[tuple[float, float]]:
    """Front-left, front-right, back-right, back-left (left/right as the tray faces)."""
    dx, dy = direction(facing)
    rx, ry = right_of(facing)
    hw = width / 2
    fl = (at[0] - rx * hw, at[1] - ry * hw)
    fr = (at[0] + rx * hw, at[1] + ry * hw)
    br = (fr[0] - dx * depth, fr[1] - dy * depth)
    bl = (fl[0] - dx * depth, fl[1] - dy * depth)
    return [fl, fr, br, bl]


def tray(at: Sequence[float], facing: float, width: float, depth: float) -> Polygon:
    return _tray(at[0], at[1], facing, width, depth)


@functools.lru_cache(maxsize=8192)
def _tray(x: float, y: float, facing: float, width: float, depth: float) -> Polygon:
    # shapely 2's geometries are immutable, so one tray serves every caller asking for the same pose:
    # a unit that has not moved is not rebuilt at each check (the simulation's hottest path)
    return Polygon(corners((x, y), facing, width, depth))


def pivot(at: Sequence[float], facing: float, new_facing: float, depth: float) -> tuple[float, float]:
    """The new front-centre after pivoting about the tray centre (M72)."""
    return at_from_centre(centre(at, facing, depth), new_facing, depth)


def translate(at: Sequence[float], facing: float, direction_name: str, distance: float) -> tuple[float, float]:
    """A straight move without turning: forward, back, left or right (M73)."""
    dx, dy = direction(facing)
    rx, ry = right_of(facing)
    vx, vy = {"forward": (dx, dy), "back": (-dx, -dy), "left": (-rx, -ry), "right": (rx, ry)}[direction_name]
    return at[0] + vx * distance, at[1] + vy * distance


def swept(start: Polygon, end: Polygon) -> BaseGeometry:
    """The area a tray sweeps in a straight translation: the convex hull of both positions."""
    return unary_union([start, end]).convex_hull


def shrunk(g: BaseGeometry) -> BaseGeometry:
    return g.buffer(-HALF, join_style="mitre")


def overlaps(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Interiors intersect by more than the tolerance (penetration depth > TOL). Shapes whose bounding
    boxes are apart cannot (a shrunk shape lies within its box): answered without shrinking them."""
    (ax0, ay0, ax1, ay1), a_shrunk = _known(a)
    (bx0, by0, bx1, by1), b_shrunk = _known(b)
    if ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0:
        return False
    return a_shrunk().intersects(b_shrunk())


_known_shapes: dict[int, tuple[BaseGeometry, tuple[float, ...], Any]] = {}


def _known(g: BaseGeometry) -> tuple[tuple[float, ...], Any]:
    """A shape's bounds and (made when first asked) its shrunk shape. Trays are cached (_tray), so these
    are too, by identity; the shape is kept alongside, so its id cannot be reused while the entry lives."""
    kept = _known_shapes.get(id(g))
    if kept is None or kept[0] is not g:
        if len(_known_shapes) > 8192:
            _known_shapes.clear()
        kept = (g, g.bounds, functools.cache(lambda: shrunk(g)))
        _known_shapes[id(g)] = kept
    return kept[1], kept[2]


def distance(a: BaseGeometry, b: BaseGeometry) -> float:
    return float(a.distance(b))


def touches(a: BaseGeometry, b: BaseGeometry) -> bool:
    return distance(a, b) <= TOL


def le(a: float, b: float) -> bool:
    return a <= b + TOL


def lt(a: float, b: float) -> bool:
    return a < b - TOL


def on_table(poly: Polygon, table: Sequence[float]) -> bool:
    return _table_box(table[0], table[1]).contains(poly)


@functools.cache
def _table_box(width: float, depth: float) -> Polygon:
    return box(-TOL, -TOL, width + TOL, depth + TOL)


# ------------------------------------------------------------------ arcs (M80, M82)

ARCS = ("front", "right", "rear", "left")


def wedges(at: Sequence[float], facing: float, width: float, depth: float) -> dict[str, Polygon]:
    """The four arcs: wedges from the tray centre through its corners (front, right flank, rear,
    left flank)."""
    c = centre(at, facing, depth)
    cs = corners(at, facing, width, depth)

    def far(p: tuple[float, float]) -> tuple[float, float]:
        vx, vy = p[0] - c[0], p[1] - c[1]
        n = math.hypot(vx, vy)
        return c[0] + vx / n * FAR, c[1] + vy / n * FAR

    fl, fr, br, bl = (far(p) for p in cs)
    return {
        "front": Polygon([c, fl, fr]),
        "right": Polygon([c, fr, br]),
        "rear": Polygon([c, br, bl]),
        "left": Polygon([c, bl, fl]),
    }


ARC_BONUS_ORDER = {"front": 0, "flank": 1, "rear": 2}


def arc_areas(target_wedges: dict[str, Polygon], other: Polygon) -> dict[str, float]:
    """Area of `other` in each of the target's arcs, flanks merged."""
    areas = {k: float(w.intersection(other).area) for k, w in target_wedges.items()}
    return {"front": areas["front"], "flank": max(areas["left"], areas["right"]), "rear": areas["rear"]}


def arc_of(target_wedges: dict[str, Polygon], other: Polygon) -> tuple[str, list[str]]:
    """(the arc holding most of `other`, every arc tied with it within the tolerance). The default
    of a tie is the arc with the smaller bonus (Front < Flank < Rear)."""
    areas = arc_areas(target_wedges, other)
    best = max(areas.values())
    tied = [a for a in ("front", "flank", "rear") if abs(areas[a] - best) <= TOL]
    return tied[0], tied


# ------------------------------------------------------------------ line of sight (M81)


def obstacle_union(polys: Iterable[BaseGeometry], exact: bool = False) -> BaseGeometry | None:
    """Obstacles as one shape: pieces that touch (gap <= TOL) merge, so no sight line passes between
    them. `exact` (rules revision 3): each piece grown by half the tolerance, so two pieces merge
    exactly when their gap is at most TOL (the distance at which trays touch) and a line must pass
    more than half the tolerance from every edge (a line grazing an edge is not clear). Revision 1:
    merged at 0.012 in, then shrunk so that a line grazing an edge is not blocked (the sampling)."""
    polys = list(polys)
    if not polys:
        return None
    if exact:
        return unary_union([p.buffer(HALF, join_style="mitre") for p in polys])
    return unary_union([p.buffer(HALF + 0.001, join_style="mitre") for p in polys]).buffer(
        -(TOL + 0.002), join_style="mitre")


def _samples_on(geom: BaseGeometry, step: float) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    geoms = getattr(geom, "geoms", [geom])
    for g in geoms:
        if g.is_empty or not hasattr(g, "exterior"):
            continue
        ring = g.exterior
        n = max(4, int(ring.length / step))
        for i in range(n):
            p = ring.interpolate(i / n, normalized=True)
            pts.append((p.x, p.y))
        c = g.representative_point()
        pts.append((c.x, c.y))
    return pts


def line_of_sight(viewer_at: Sequence[float], viewer_facing: float, width: float, depth: float,
                  target: Polygon, obstacles: BaseGeometry | None, exact: bool = True,
                  grown: bool = False) -> bool:
    """A straight segment from a point of the viewer's front edge to a point of the target inside
    the viewer's Front arc, clear of the obstacles (M81): the exact search (`_sight_exact`), or with
    `exact` false (rules revision 1) the sampling of `_sampled_sight`."""
    region = wedges(viewer_at, viewer_facing, width, depth)["front"].intersection(target)
    if region.is_empty or region.area <= TOL * TOL:
        return False
    if not exact:
        return _sampled_sight(viewer_at, viewer_facing, width, depth, region, obstacles)
    if obstacles is None or obstacles.is_empty:
        return True
    fl, fr, _br, _bl = corners(viewer_at, viewer_facing, width, depth)
    if grown:  # rules revision 2: obstacles from obstacle_union(exact=False), kept 0.006 in inside their
        # edges, grown back past them (a gap under about 0.013 in gave no sight)
        obstacles = obstacles.buffer(HALF + 0.0015, join_style="mitre")
    return _sight_exact(fl, fr, region, obstacles)


def _convex_pieces(g: BaseGeometry) -> list[Polygon]:
    return [x for x in getattr(g, "geoms", [g]) if isinstance(x, Polygon) and not x.is_empty]


def _sight_exact(fl: Sequence[float], fr: Sequence[float], region: BaseGeometry, obstacles: BaseGeometry) -> bool:
    """Exact (issue 32): whether some segment from the front edge `fl`-`fr` to a point of the convex
    `region` misses the obstacles' interiors (obstacles as obstacle_union(exact=True) gives them). If such a segment exists, one exists that passes
    through two of the critical points (a vertex of an obstacle, an end of the front edge, a vertex
    of the region): slide and turn a free segment until two of them stop it. So every line through
    two critical points is tried: where it meets the front edge (S) and the region (the point Q
    nearest S), the segment S-Q is tested against the obstacles shrunk by a millionth of an inch, so
    a line through their corners (grazing them) is free. Only the obstacles inside the convex hull
    of the edge and the region can block a segment between them, so only their corners there (and
    where the hull cuts them) are critical points."""
    # the obstacles come from obstacle_union(exact=True): each grown by half the tolerance, so a line
    # through two of their corners clears every true edge by HALF (grazing a tray's edge is no sight)
    edge = LineString([fl, fr])
    hull = unary_union([edge, region]).convex_hull
    near = obstacles.intersection(hull)
    pieces = _convex_pieces(near)
    if not pieces or near.area <= 1e-12:
        return True
    # tested against the whole obstacles: the hull's clipping draws edges that are not theirs
    test = prepared.prep(obstacles.buffer(-1e-6, join_style="mitre"))
    pts: list[tuple[float, float]] = [tuple(fl), tuple(fr)]
    for g in pieces:
        pts += [tuple(c) for c in g.exterior.coords[:-1]]
        for ring in g.interiors:
            pts += [tuple(c) for c in ring.coords[:-1]]
    for g in _convex_pieces(region):
        pts += [tuple(c) for c in g.exterior.coords[:-1]]
    pts = list(dict.fromkeys((round(x, 9), round(y, 9)) for x, y in pts))
    rpoly = region if isinstance(region, Polygon) else max(_convex_pieces(region), key=lambda g: g.area)
    ex, ey = fr[0] - fl[0], fr[1] - fl[1]
    for i, a in enumerate(pts):
        for b in pts[i + 1:]:
            dx, dy = b[0] - a[0], b[1] - a[1]
            n = math.hypot(dx, dy)
            if n < 1e-9:
                continue
            dx, dy = dx / n, dy / n
            # where the line a + t (dx, dy) meets the front edge fl + u (ex, ey), 0 <= u <= 1
            den = dx * ey - dy * ex
            if abs(den) < 1e-12:
                continue  # parallel to the front edge: no single point S
            wx, wy = fl[0] - a[0], fl[1] - a[1]
            t = (wx * ey - wy * ex) / den
            u = (wx * dy - wy * dx) / den
            if u < -1e-9 or u > 1 + 1e-9:
                continue
            sx, sy = a[0] + dx * t, a[1] + dy * t
            line = LineString([(sx - dx * FAR, sy - dy * FAR), (sx + dx * FAR, sy + dy * FAR)])
            cut = line.intersection(rpoly)
            if cut.is_empty:
                continue
            ends = [c for g in getattr(cut, "geoms", [cut]) for c in g.coords]
            q = min(ends, key=lambda c: (c[0] - sx) ** 2 + (c[1] - sy) ** 2)
            if (q[0] - sx) ** 2 + (q[1] - sy) ** 2 < 1e-18:
                return True
            if not test.intersects(LineString([(sx, sy), q])):
                return True
    return False


def _sampled_sight(viewer_at: Sequence[float], viewer_facing: float, width: float, depth: float,
                   region: BaseGeometry, obstacles: BaseGeometry | None) -> bool:
    """Revision 1's line of sight: 9 points of the front edge, target points every 0.5 in on the
    visible part's boundary (a narrow gap may be missed)."""
    fl, fr, _br, _bl = corners(viewer_at, viewer_facing, width, depth)
    dx, dy = direction(viewer_facing)
    eps = 0.02
    starts = [(fl[0] + (fr[0] - fl[0]) * t + dx * eps, fl[1] + (fr[1] - fl[1]) * t + dy * eps)
              for t in (0.01, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 0.99)]
    if obstacles is None or obstacles.is_empty:
        return True
    prep = prepared.prep(obstacles)
    ends = _samples_on(region.buffer(-0.02) if region.buffer(-0.02).area > 0 else region, 0.5)
    for q in ends:
        for p in starts:
            if not prep.intersects(LineString([p, q])):
                return True
    return False


def point_distance(p: Sequence[float], poly: BaseGeometry) -> float:
    return float(Point(p[0], p[1]).distance(poly))


def contact_distance(moving: Polygon, vx: float, vy: float, limit: float, other: BaseGeometry) -> float | None:
    """The distance along (vx, vy) (unit vector) at which `moving` first touches `other` within
    `limit`, or None. Binary search on the swept hull (0.001 in)."""
    from shapely import affinity

    end = affinity.translate(moving, vx * limit, vy * limit)
    if not swept(moving, end).intersects(other.buffer(HALF)):
        return None
    if moving.distance(other) <= HALF:
        return 0.0
    lo, hi = 0.0, limit
    while hi - lo > 0.0005:
        mid = (lo + hi) / 2
        m = affinity.translate(moving, vx * mid, vy * mid)
        if swept(moving, m).intersects(other.buffer(HALF)):
            hi = mid
        else:
            lo = mid
    return hi
