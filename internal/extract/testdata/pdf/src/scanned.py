"""Renders a page of text as a 1-bit image: a "scanned" page with no text layer."""
import sys
from PIL import Image, ImageDraw, ImageFont

img = Image.new("1", (1240, 1754), 1)
d = ImageDraw.Draw(img)
font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 36)
for i, line in enumerate(["This page was scanned.", "It is an image with no text layer.", "Only OCR could read it."]):
    d.text((120, 200 + 80 * i), line, font=font, fill=0)
img.save(sys.argv[1], dpi=(150, 150))
