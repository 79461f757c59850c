#pragma once

#include <QScrollArea>

/// A frameless, see-through scroll area around @p content for the terminal's forms: as wide as it is given (no
/// horizontal scroll bar), scrolling down when the window is too short for the form (a 1280×720 kiosk, issue 27), and
/// following the keyboard focus as Tab moves through the form. It takes no focus itself.
QScrollArea *makeVerticalScroll(QWidget *content, QWidget *parent);
