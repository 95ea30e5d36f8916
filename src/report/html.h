/*
 * html.h — the parts of the report's HTML file (html.c): head and style,
 * the list of inputs, the spec-sheet table, the table of run latencies,
 * one figure per chart with its SVG inlined, the end. Everything written
 * is escaped or generated; nothing refers to anything outside the file.
 * For report/ only.
 */
#ifndef IOMODEL_REPORT_HTML_H
#define IOMODEL_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "report/inputs.h"

void html_begin(FILE *f, const struct report_drive *drives, size_t n);
void html_spec_sheet(FILE *f, const struct report_drive *drives, size_t n);
void html_run_table(FILE *f, const struct report_drive *drives, size_t n);
void html_charts_heading(FILE *f);
/*
 * A figure: the SVG document `svg` (PLplot's output: its XML prologue is
 * dropped, its ids are prefixed with "cN-" so that several SVGs can share
 * the page) and its caption.
 */
void html_figure(FILE *f, unsigned n, const char *caption, const char *svg, size_t len);
void html_end(FILE *f);

#endif
