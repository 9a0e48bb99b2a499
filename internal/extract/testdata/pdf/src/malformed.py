"""Writes the hand-made malformed PDFs of the corpus (each a known way a
parser can loop, recurse or fail) into the directory given as argv[1]."""
import os
import sys
import zlib

out = sys.argv[1]

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def content(text):
    body = b"BT /F1 14 Tf 72 720 Td (" + text.encode() + b") Tj ET"
    return b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"


def page(parent, contents, resources=True):
    res = b" /Resources << /Font << /F1 %d 0 R >> >>" % resources if resources else b""
    return b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R%s >>" % (parent, contents, res)


def write(name, objs, trailer=b"", xref=True):
    """objs: list of bytes, object i+1. Writes a classic xref table."""
    b = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offs = []
    for i, o in enumerate(objs):
        offs.append(len(b))
        b += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
    if xref:
        x = len(b)
        b += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
        for off in offs:
            b += b"%010d 00000 n \n" % off
        b += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, trailer, x)
    with open(os.path.join(out, name), "wb") as f:
        f.write(b)
    return b, offs


# Page tree whose Kids contain the Pages node itself.
write("cyclic-kids.pdf", [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
    page(2, 4, 5),
    content("Cyclic kids: this page is real."),
    FONT,
])

# A page inherits its resources through a Parent chain that loops 2 -> 6 -> 2.
write("parent-loop.pdf", [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 6 0 R >>",
    b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
    content("Parent loop: resources are inherited from nowhere."),
    FONT,
    b"<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
])

# Page count of a billion over one real page.
write("huge-count.pdf", [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>",
    page(2, 4, 5),
    content("Huge count: one page claims to be a billion."),
    FONT,
])

# Three pages; the second's content stream claims Flate but is garbage.
garbage = bytes((i * 37 + 11) % 256 for i in range(400))
bad = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(garbage) + garbage + b"\nendstream"
write("bad-stream.pdf", [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R 6 0 R 8 0 R] /Count 3 >>",
    page(2, 4, 5),
    content("First page survives the broken stream."),
    FONT,
    page(2, 7, 5),
    bad,
    page(2, 9, 5),
    content("Third page survives as well."),
])

# Page tree nested 3000 levels deep (recursion without a depth limit).
depth = 1500
objs = [b"<< /Type /Catalog /Pages 2 0 R >>"]
for i in range(depth):
    n = i + 2
    kid = n + 1
    parent = b" /Parent %d 0 R" % (n - 1) if i else b""
    objs.append(b"<< /Type /Pages /Kids [%d 0 R] /Count 1%s >>" % (kid, parent))
leaf = depth + 2
objs.append(page(leaf - 1, leaf + 1, leaf + 2))
objs.append(content("Deep tree: the only page is fifteen hundred levels down."))
objs.append(FONT)
write("deep-tree.pdf", objs)

# Two xref sections whose /Prev point at each other.
objs = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    page(2, 4, 5),
    content("Xref loop: the cross-reference chain is a circle."),
    FONT,
]
b, offs = write("xref-loop.pdf", objs, xref=False)
x1 = len(b)
sec1 = b"xref\n0 6\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offs)
# Both sections have the same length, so the second's offset is known
# before either trailer is written.
tr = b"trailer\n<< /Size 6 /Root 1 0 R /Prev %010d >>\n"
x2 = x1 + len(sec1) + len(tr % 0)
b += sec1 + tr % x2
b += sec1 + tr % x1
b += b"startxref\n%d\n%%%%EOF\n" % x2
with open(os.path.join(out, "xref-loop.pdf"), "wb") as f:
    f.write(b)

with open(os.path.join(out, "not-a-pdf.pdf"), "wb") as f:
    f.write(b"This is a plain text file with a .pdf name.\n" * 20)
