#pragma once

class QDialog;

/// Dialogs that give the keyboard back (issue 27): a print dialog or print preview closes and the
/// window it came from takes keys again at once, without a click to activate it.
namespace DialogFocus {

/// Opens `dialog` window-modal (QDialog::open()) and, when it closes, activates the window it came
/// from and gives the focus back to the widget that had it before (if it still exists and can take it).
void openAndRestore(QDialog *dialog);

} // namespace DialogFocus
