#pragma once

class QWidget;

/// The named looks of ui/style.qss (issue 14: style sheets live there, not inline): a widget gets
/// one by its `look` property, e.g. QLabel[look="notice"], so its object name stays free as a
/// test handle. set() re-polishes, so a look may change while the widget is shown.
namespace Look {

/// Gives `widget` the look `look` ("" for none) and re-polishes it.
void set(QWidget *widget, const char *look);

} // namespace Look
