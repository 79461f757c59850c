#pragma once

#include <QStringList>

class QTableWidget;
class QWidget;

/// A read-only table of whole rows for the back office's lists (a sale's calls and deliveries, a statement's runs and
/// lines): named `name` for tests, `headers` as its columns fitted to their text with the last one stretched, one row
/// selected at a time, no row numbers.
QTableWidget *makeReadOnlyTable(QWidget *parent, const char *name, const QStringList &headers);
