#pragma once

#include <QString>

#include <functional>

class QAbstractItemModel;
class QLabel;
class QPushButton;
class QScrollArea;
class QTableView;
class QWidget;

/// Small building blocks shared by the back-office screens, so they look and behave alike.
namespace BackOfficeUi {

/// A page title label (look "pageTitle").
QLabel *title(const QString &text, QWidget *parent);
/// A grey explanatory label (look "hint"), word-wrapped.
QLabel *hint(const QString &text, QWidget *parent);
/// A white, rounded panel that groups one task's fields (look "card", styled in style.qss).
QWidget *card(QWidget *parent);
/// Gives a widget of a .ui form card()'s look (object name "card", styled background).
void makeCard(QWidget *widget);
/// Who did it, in words: "user:Asha" -> "Asha", "key:test_ab12" -> "key test_ab12", "setup" ->
/// "first-run setup", "system" -> "RechargeDesk itself", else as is.
QString actorText(const QString &actor);
/// A section heading (bold, larger).
QLabel *heading(const QString &text, QWidget *parent);
/// The red banner for errors that name no field (object name "generalError", its test handle; look
/// "generalError"), initially hidden.
QLabel *generalError(QWidget *parent);
/// A green confirmation line (object name and look "notice"), initially hidden.
QLabel *notice(QWidget *parent);
/// Shows `text` in a notice label made by notice().
void showNotice(QLabel *label, const QString &text);
/// Gives a button the blue look of the style sheet's "primary" buttons while it keeps its own
/// object name (tests and screens find buttons by name).
void makePrimary(QPushButton *button);
/// Gives a label the style sheet's large "bigValue" look, keeping its own object name.
void makeBigValue(QLabel *label);
/// A frameless vertical scroll area around `content` that gives it the whole width and scrolls
/// only when `content` needs more height than the page has (e.g. at kiosk fonts on 1280×720).
QScrollArea *scrollArea(QWidget *content, QWidget *parent);
/// Wraps a side column of cards (`content`, `width` pixels wide) in a frameless vertical scroll
/// area, so large kiosk fonts scroll instead of squashing the fields.
QWidget *sideColumn(QWidget *content, int width, QWidget *parent);
/// A read-only, row-selecting table over `model`, named `objectName`, last column stretched.
QTableView *table(QAbstractItemModel *model, const QString &objectName, QWidget *parent);

/// Asks "are you sure" without blocking (a window-modal QMessageBox named "confirmBox" whose
/// confirming button is named "confirmButton"); runs `accepted` on `parent`'s thread if the
/// person confirms. Cancel is the default button, so a stray Enter changes nothing.
void confirm(QWidget *parent, const QString &title, const QString &text, const QString &confirmText,
             std::function<void()> accepted);

} // namespace BackOfficeUi
