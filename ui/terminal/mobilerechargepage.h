#pragma once

#include "entities/numberinfo.h"
#include "entities/transactionrecord.h"
#include "plantablemodel.h"
#include "terminalcontext.h"

#include <QJsonObject>
#include <QWidget>

#include <optional>

class DigitsLineEdit;
class QComboBox;
class QLabel;
class QPushButton;
class SaleFlow;
class SaleInputs;

/// Mobile recharge (api-v1.md endpoint 5): number with live validation, operator and circle (filled
/// as the tenth digit is typed from what the shop last sold to the number, GET /api/v1/numbers/{n},
/// with a line saying where they came from; else the circle used last at this terminal), amount
/// checked live against the operator's limits, optional reference; then SaleFlow's
/// confirmation, result and receipt. Once the number is complete the server's history offers
/// "Repeat last: ₹299 Jio (Enter)": with the amount still empty, Enter sells that again. The number
/// being typed, with its operator and circle, is published as TerminalContext::mobileSale() so the
/// Plans screen opens on them.
class MobileRechargePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MobileRechargePage)

public:
    explicit MobileRechargePage(TerminalContext &context, QWidget *parent = nullptr);

    /// "Sell this plan" from the Plans screen: starts a new sale (the previous customer's number
    /// is cleared) with the operator, circle and amount (the plan's price, whole rupees) filled in,
    /// the amount locked to the plan and a "Plan: … [Unlink]" chip under it, and focuses the number.
    /// Typing into the amount, changing the operator or Unlink drops the plan, visibly; a linked
    /// plan goes on to the confirmation and the receipt.
    void fillFromPlan(const QString &operatorCode, const QString &circleCode, const PlanItem &plan);

    SaleFlow *flow() const { return m_flow; }
    /// The line under the operator: where the operator and circle filled from the number came from.
    QLabel *operatorHint() const;
    /// True while the amount is linked to a plan from the Plans screen.
    bool planLinked() const { return m_plan.has_value(); }

signals:
    /// The server answered the number lookup for `number` (the number typed then): `known` when it
    /// knew the number (operator and circle filled unless the clerk chose them), false for unknown
    /// (404) and for a failed call (both leave the form as it was, saying nothing).
    void numberLookupAnswered(const QString &number, bool known);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onNumberChanged();
    /// Asks the server what the shop (or its distributor) last sold to `number` and fills operator
    /// and circle from it, unless the clerk chose them meanwhile; unknown or unreachable: nothing.
    void lookUpNumber(const QString &number);
    void onNumberKnown(const NumberInfo::Sighting &known, const QString &operatorAsked, const QString &circleAsked);
    /// "Last recharged with Jio on 12 Nov." (", from the distributor" when the upstream answered).
    QString knownText(const QString &operatorName, const NumberInfo::Sighting &known) const;
    /// Tells the terminal context which number (operator, circle) this form is selling, for Plans.
    void publishSale();
    void onSubmitted();
    void reset();
    /// Drops the linked plan; `visibly` leaves "Plan unlinked" under the amount.
    void unlinkPlan(bool visibly);
    void onLastSale(const QString &number, const TransactionRecord &record);
    /// Shows the repeat offer when there is one and the amount is still empty.
    void updateOffer();
    /// Fills operator and amount from the offered last sale (Enter on an empty amount).
    void takeOffer();

    TerminalContext &m_context;
    SaleFlow *m_flow;
    SaleInputs *m_inputs;
    DigitsLineEdit *m_number;
    QComboBox *m_circle;
    QWidget *m_planChip;
    QLabel *m_planText;
    QPushButton *m_unlink;
    QLabel *m_planHint;
    std::optional<PlanItem> m_plan; ///< the plan being sold, if the sale came from the Plans screen
    QString m_planOperator;
    QPushButton *m_repeat;
    std::optional<TransactionRecord> m_lastSale; ///< the last sale to the number typed (from the server)
    QString m_lastSaleOperator;
};
