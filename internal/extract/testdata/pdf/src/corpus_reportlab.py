"""Builds the ReportLab documents of the corpus into argv[1]."""
import os
import sys

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.lib import colors
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import SimpleDocTemplate, Paragraph, Table, TableStyle, Spacer

out, src = sys.argv[1], os.path.dirname(os.path.abspath(__file__))
styles = getSampleStyleSheet()


def lines(name):
    with open(os.path.join(src, name), encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip()]


def story(ls, body, head, title):
    s = [Paragraph(ls[0], title)]
    for l in ls[1:]:
        s.append(Paragraph(l, head if len(l) < 40 else body))
    return s


def doc(name, flow):
    d = SimpleDocTemplate(os.path.join(out, name), pagesize=A4, invariant=1,
                          title="Knowspace corpus", author="Knowspace tests")
    d.build(flow)


en = lines("prose.txt")
flow = story(en, styles["BodyText"], styles["Heading2"], styles["Title"])
table = Table([["Format", "Pages", "Words"], ["pdfTeX", "3", "650"], ["ReportLab", "2", "520"]])
table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey)]))
flow += [Spacer(1, 12), table] + story(en, styles["BodyText"], styles["Heading2"], styles["Heading1"])
doc("reportlab.pdf", flow)

zh = lines("prose-zh.txt")
# STSong-Light is one of Adobe's standard CID fonts: referenced, never
# embedded, so a reader must map CIDs to Unicode from the CMap alone.
pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
cid = ParagraphStyle("cid", fontName="STSong-Light", fontSize=11, leading=16, wordWrap="CJK")
cidh = ParagraphStyle("cidh", parent=cid, fontSize=15, leading=22)
doc("reportlab-cjk-cid.pdf", story(zh, cid, cidh, cidh))

pdfmetrics.registerFont(TTFont("WQY", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", subfontIndex=0))
emb = ParagraphStyle("emb", fontName="WQY", fontSize=11, leading=16, wordWrap="CJK")
embh = ParagraphStyle("embh", parent=emb, fontSize=15, leading=22)
doc("reportlab-cjk-embedded.pdf", story(zh, emb, embh, embh))
