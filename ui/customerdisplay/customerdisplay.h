#pragma once

#include "money.h"

#include <QString>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QTimer;
class UpiQrWidget;

/// What the customer display shows: one sale at a time, and only what its customer may see (issue 28). It has no
/// field for the commission, the wallet or any other sale, so the display cannot show them.
struct CustomerDisplayState
{
    enum class Stage
    {
        Idle,         ///< no sale: the shop's name and "Welcome"
        ToPay,        ///< the sale confirmed on the counter, before it is sent: what to pay, and how
        Recharged,    ///< SUCCESS
        NotRecharged, ///< FAILED at once: the customer pays nothing
        Waiting,      ///< PENDING: the operator has not answered yet
        MoneyBack,    ///< failed after PENDING, once paid: the customer's money is given back
    };

    Stage stage = Stage::Idle;
    QString shopName;     ///< shown when idle
    QString operatorName; ///< e.g. "Jio", "Tata Play", "Google Play"
    QString number;       ///< the number recharged, in full (it is the customer's own); "" for a voucher
    Paise amount = 0;     ///< what the customer pays (the bill amount), paise
    QString tender;       ///< "cash" | "upi" | "" (as SaleRequest::tender)
    QString upiLink;      ///< UpiLink::build() of this sale; its QR is shown at ToPay when the tender is "upi"
};

/// The customer-facing panel: the idle screen, the sale to pay (operator, number, amount, and the UPI QR when the
/// customer pays by UPI), then the outcome, and back to idle after kBackToIdleMs or at the next setState(). Large
/// type for reading across a counter; every text through tr() (English source, Hindi from the translation). Put
/// it in a CustomerDisplayWindow for a second screen, or in a page of its own (a kiosk's confirm screen).
class CustomerDisplayPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomerDisplayPanel)

public:
    /// How long an outcome stays before the idle screen comes back, in milliseconds.
    static constexpr int kBackToIdleMs = 20000;

    explicit CustomerDisplayPanel(QWidget *parent = nullptr);
    ~CustomerDisplayPanel() override;

    /// Shows `state`, replacing all of the previous one. An outcome stage (Recharged, NotRecharged, Waiting,
    /// MoneyBack) goes back to Idle, keeping only the shop's name, after backToIdleMs().
    void setState(const CustomerDisplayState &state);
    /// The state shown (Idle with the shop's name once an outcome timed out).
    const CustomerDisplayState &state() const { return m_state; }

    /// Changes the delay before an outcome gives way to the idle screen (tests), in milliseconds.
    void setBackToIdleMs(int ms);
    int backToIdleMs() const;

private:
    void showIdle();
    void showToPay();
    void showOutcome();
    void backToIdle();

    CustomerDisplayState m_state;
    QTimer *m_backToIdle;
    QStackedWidget *m_pages;
    // Idle
    QWidget *m_idlePage;
    QLabel *m_shopName;
    QLabel *m_welcome;
    // To pay
    QWidget *m_payPage;
    QLabel *m_payOperator;
    QLabel *m_payNumber;
    QLabel *m_payAmountCaption;
    QLabel *m_payAmount;
    QLabel *m_cashHint;
    QWidget *m_upiColumn;
    UpiQrWidget *m_qr;
    QLabel *m_upiHint;
    // Outcome
    QWidget *m_outcomePage;
    QLabel *m_outcome;
    QLabel *m_outcomeSale;
    QLabel *m_outcomeAmount;
    QLabel *m_outcomeHint;
};

/// The customer display as a window of its own, full-screen on a screen of the shop's choice (Settings → this
/// terminal → Customer display on screen N, or --customer-display). It never takes the keyboard from the
/// terminal's window.
class CustomerDisplayWindow final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomerDisplayWindow)

public:
    explicit CustomerDisplayWindow(QWidget *parent = nullptr);

    CustomerDisplayPanel *panel() const { return m_panel; }
    /// Shows the window full-screen on QGuiApplication::screens().at(`screenIndex`) (0 = the first). False, and the
    /// window shown full-screen on the primary screen, when there is no such screen.
    bool showOnScreen(int screenIndex);

private:
    CustomerDisplayPanel *m_panel;
};
