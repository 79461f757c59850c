#pragma once

#include "entities/shop.h"

#include <QWidget>

#include <optional>

class QGridLayout;
class QLabel;
class QPushButton;
class TerminalContext;

/// The selected shop on the Shops page (issue 30): its state (a suspended one says so, with the reason, in words), its
/// balance (red below zero), credit limit and what it may still spend, today's sales, owner, mobile, circle, GSTIN and
/// last contact — and what the distributor does with it: Top up… (Alt+T), Credit limit… (Alt+L), Margins… (Alt+M),
/// Suspend… / Resume (Alt+U), Keys… (Alt+K), Statement… (Alt+E). Each opens its dialog over the page; a change is
/// announced by shopChanged(). Buttons: "shopTopUp", "shopCreditLimit", "shopMargins", "shopSuspend", "shopKeys",
/// "shopStatement"; figures: "shopBalance", "shopLimit", "shopAvailable", "shopState".
class ShopDetailPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShopDetailPane)

public:
    explicit ShopDetailPane(TerminalContext &context, QWidget *parent = nullptr);

    /// Shows `shop` (nullopt: none selected; the buttons are off).
    void setShop(const std::optional<Shop> &shop);
    const std::optional<Shop> &shop() const { return m_shop; }

    QPushButton *topUpButton() const { return m_topUp; }
    QPushButton *creditLimitButton() const { return m_limit; }
    QPushButton *marginsButton() const { return m_margins; }
    QPushButton *suspendButton() const { return m_suspend; }
    QPushButton *keysButton() const { return m_keys; }
    QPushButton *statementButton() const { return m_statement; }

signals:
    /// The shop changed here (topped up, limit, suspended or resumed): as the server answered.
    void shopChanged(const Shop &shop);

private:
    QLabel *addFigure(QGridLayout *grid, int row, int column, const QString &caption, const QString &name);
    void onTopUp();
    void onCreditLimit();
    void onMargins();
    void onSuspendOrResume();
    void onKeys();
    void onStatement();
    void changed(const Shop &shop);

    TerminalContext &m_context;
    std::optional<Shop> m_shop;
    QLabel *m_name;
    QLabel *m_state;
    QLabel *m_balance;
    QLabel *m_creditLimit;
    QLabel *m_available;
    QLabel *m_today;
    QLabel *m_success;
    QLabel *m_owner;
    QLabel *m_mobile;
    QLabel *m_circle;
    QLabel *m_gstin;
    QLabel *m_lastContact;
    QLabel *m_error;
    QPushButton *m_topUp;
    QPushButton *m_limit;
    QPushButton *m_margins;
    QPushButton *m_suspend;
    QPushButton *m_keys;
    QPushButton *m_statement;
};
