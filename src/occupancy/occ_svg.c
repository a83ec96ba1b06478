/* Self-contained SVG rendering of one what-if curve: a step chart of active warps per SM (left axis)
 * and occupancy % (right axis) with grid, ticks, axis labels and the current point marked. */
#include "occupancy/occupancy.h"

#include <math.h>

#define W 800
#define H 460
#define ML 78
#define MR 70
#define MT 72
#define MB 64

static double nice_step(double range, int max_ticks)
{
    double raw = range / max_ticks;
    double p = pow(10.0, floor(log10(raw)));
    double steps[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        if (steps[i] * p >= raw) return steps[i] * p;
    return 10 * p;
}

static void xml_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

int cc_occ_curve_svg(FILE *out, const cc_occ_curve *c, const char *subtitle)
{
    if (c->n <= 0 || c->max_warps <= 0) return -1;
    int smem = c->kind == CC_OCC_CURVE_SHARED_MEMORY;
    double x_max = (double)c->x[c->n - 1];
    if ((double)c->current_x > x_max) x_max = (double)c->current_x;
    double x_min = 0;
    double pw = W - ML - MR, ph = H - MT - MB;
    double y_max = c->max_warps;
#define PX(v) (ML + ((double)(v) - x_min) / (x_max - x_min) * pw)
#define PY(v) (MT + ph - ((double)(v) / y_max) * ph)

    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\">\n",
            W, H, W, H);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, H);
    fprintf(out, "<text x=\"%d\" y=\"28\" font-size=\"19\" font-weight=\"bold\" fill=\"#222\">", ML);
    xml_text(out, c->title);
    fprintf(out, "</text>\n<text x=\"%d\" y=\"50\" font-size=\"12.5\" fill=\"#555\">", ML);
    xml_text(out, subtitle);
    fputs("</text>\n", out);

    /* horizontal grid + left (warps) ticks */
    double ys = nice_step(y_max, 8);
    for (double v = 0; v <= y_max + 1e-9; v += ys) {
        fprintf(out, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
                ML, ML + pw, PY(v), PY(v));
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\" fill=\"#333\">%g</text>\n",
                ML - 8, PY(v) + 4, v);
    }
    /* right (occupancy %) ticks */
    for (int p = 0; p <= 100; p += 25) {
        double v = y_max * p / 100.0;
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                ML + pw, ML + pw + 5, PY(v), PY(v));
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#333\">%d%%</text>\n",
                ML + pw + 8, PY(v) + 4, p);
    }
    /* vertical grid + x ticks */
    double xs = smem ? 1024.0 * nice_step(x_max / 1024.0, 10) : nice_step(x_max - x_min, 10);
    for (double v = 0; v <= x_max + 1e-9; v += xs) {
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\" stroke=\"#efefef\"/>\n",
                PX(v), PX(v), MT, MT + ph);
        fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                PX(v), PX(v), MT + ph, MT + ph + 5);
        if (smem)
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" fill=\"#333\">%gK</text>\n",
                    PX(v), MT + ph + 19, v / 1024.0);
        else
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" fill=\"#333\">%g</text>\n",
                    PX(v), MT + ph + 19, v);
    }
    /* axes */
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
            ML, MT, pw, ph);
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\" fill=\"#222\">%s</text>\n",
            ML + pw / 2, H - 18, smem ? "Shared memory per block (KB)" : c->x_label);
    fprintf(out, "<text transform=\"translate(22,%.1f) rotate(-90)\" font-size=\"13\" "
                 "text-anchor=\"middle\" fill=\"#222\">Active warps per SM</text>\n", MT + ph / 2);
    fprintf(out, "<text transform=\"translate(%d,%.1f) rotate(90)\" font-size=\"13\" "
                 "text-anchor=\"middle\" fill=\"#222\">Occupancy</text>\n", W - 14, MT + ph / 2);

    /* step line: each value holds until the next sample (area filled underneath) */
    fputs("<path fill=\"#76b900\" fill-opacity=\"0.12\" stroke=\"none\" d=\"", out);
    fprintf(out, "M%.1f,%.1f", PX(c->x[0]), PY(0));
    for (int i = 0; i < c->n; i++) {
        double x1 = i + 1 < c->n ? (double)c->x[i + 1] : x_max;
        fprintf(out, " L%.1f,%.1f L%.1f,%.1f", PX(c->x[i]), PY(c->warps[i]), PX(x1), PY(c->warps[i]));
    }
    fprintf(out, " L%.1f,%.1f Z\"/>\n", PX(x_max), PY(0));
    fputs("<path fill=\"none\" stroke=\"#4a8c00\" stroke-width=\"2.2\" stroke-linejoin=\"round\" d=\"", out);
    for (int i = 0; i < c->n; i++) {
        double x1 = i + 1 < c->n ? (double)c->x[i + 1] : x_max;
        fprintf(out, "%s%.1f,%.1f L%.1f,%.1f", i ? " L" : "M", PX(c->x[i]), PY(c->warps[i]), PX(x1),
                PY(c->warps[i]));
    }
    fputs("\"/>\n", out);

    /* current point */
    double cx = PX(c->current_x), cy = PY(c->current_warps);
    fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\" stroke=\"#d62728\" "
                 "stroke-dasharray=\"4 3\"/>\n", cx, cx, MT, MT + ph);
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"#d62728\" stroke=\"#fff\" stroke-width=\"1.5\"/>\n",
            cx, cy);
    char label[96];
    snprintf(label, sizeof label, "current: %ld%s, %d warps (%.1f%%)",
             smem ? (long)(c->current_x) : c->current_x, smem ? " B" : "", c->current_warps,
             100.0 * c->current_warps / c->max_warps);
    int right = cx > ML + pw * 0.6;
    double ly = cy - 12 < MT + 14 ? cy + 22 : cy - 12;
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12.5\" font-weight=\"bold\" fill=\"#d62728\" "
                 "text-anchor=\"%s\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
            right ? cx - 10 : cx + 10, ly, right ? "end" : "start");
    xml_text(out, label);
    fputs("</text>\n</svg>\n", out);
#undef PX
#undef PY
    return ferror(out) ? -1 : 0;
}
