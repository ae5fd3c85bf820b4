"""An independent model of Firebase's ordering, written from Firebase's
documented rules and apart from the product's code: which children a query
selects, and in what order.

- Keys: integer keys (an optional "-" and digits, fitting 32 bits) first, by
  value, equal values shorter first; then other keys by UTF-16 code units.
- Values (orderByChild / orderByValue): null, false, true, numbers, strings
  (UTF-16 code units), objects; ties by key.
- Priorities (orderByPriority, the default order): no priority, then
  numbers, then strings (UTF-16 code units); ties by key. They are read from
  data in the export format (`.priority` members, `.value` for primitives).
"""
import struct

def int_key(key):
    body = key[1:] if key.startswith("-") else key
    if not body or not all("0" <= c <= "9" for c in body):
        return None
    value = int(key)
    return value if -2**31 <= value < 2**31 else None


def utf16(s):
    return struct.unpack("<%dH" % (len(s.encode("utf-16-le")) // 2), s.encode("utf-16-le"))


def key_rank(key):
    n = int_key(key)
    if n is not None:
        return (0, n, len(key), utf16(key))
    return (1, utf16(key), 0, ())


def value_rank(v):
    if v is None:
        return (0,)
    if v is False:
        return (1,)
    if v is True:
        return (2,)
    if isinstance(v, (int, float)):
        return (3, float(v))
    if isinstance(v, str):
        return (4, utf16(v))
    return (5,)


def priority_of(child):
    """A child's priority in export-format data (None when it has none)."""
    return child.get(".priority") if isinstance(child, dict) else None


def priority_rank(p):
    if p is None:
        return (0,)
    if isinstance(p, (int, float)) and not isinstance(p, bool):
        return (1, float(p))
    return (2, utf16(p))


def child_value(child, path):
    for part in path.split("/"):
        if not isinstance(child, dict) or part not in child:
            return None
        child = child[part]
    return child


def window(data, order, start=None, end=None, equal=None, first=None, last=None):
    """Keys a query selects: sort by (value, key), filter by bounds, limit."""
    def post(key):
        if order == "$key":
            return (key_rank(key),)
        if order == "$priority":
            return (priority_rank(priority_of(data[key])), key_rank(key))
        value = data[key] if order == "$value" else child_value(data[key], order)
        return (value_rank(value), key_rank(key))

    def bound(v):
        if order == "$priority":
            return (priority_rank(v),)
        return (key_rank(v),) if order == "$key" else (value_rank(v),)

    keys = sorted(data, key=post)
    if equal is not None:
        start = end = equal
    if start is not None:
        keys = [k for k in keys if post(k)[:1] >= bound(start)]
    if end is not None:
        keys = [k for k in keys if post(k)[:1] <= bound(end)]
    if first is not None:
        keys = keys[:first]
    if last is not None:
        keys = keys[-last:] if last else []
    return set(keys)


def ordered(data, order, keys=None):
    """The keys of `data` (or just `keys`) in query order."""
    def post(key):
        if order == "$key":
            return (key_rank(key),)
        value = data[key] if order == "$value" else child_value(data[key], order)
        return (value_rank(value), key_rank(key))
    return sorted(data if keys is None else keys, key=post)

