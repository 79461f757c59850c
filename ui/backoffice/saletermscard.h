#pragma once

#include "entities/shopinfo.h"

#include <QHash>
#include <QJsonObject>
#include <QWidget>

#include <memory>

class FormErrors;
class QDoubleSpinBox;
class TerminalContext;

namespace Ui {
class SaleTermsCard;
}

/// Back office, Settings: the terms the shop sells on, kept by the server (issue 6 item 7) —
/// the discount (commission) rate per operator, as a percentage with two decimals next to the
/// catalogue default, and the sandbox settle delay in seconds. Saved with PUT /api/v1/shop
/// (discount_basis_points for the operators whose rate changed, sandbox_settle_delay_ms); the
/// next sale at every terminal uses them, and this terminal's confirmation screen at once.
class SaleTermsCard final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SaleTermsCard)

public:
    explicit SaleTermsCard(TerminalContext &context, QWidget *parent = nullptr);
    ~SaleTermsCard() override;

    /// Fills the fields from a GET/PUT /api/v1/shop answer (discount_rates, sandbox_settle_delay_ms).
    void showShop(const ShopInfo &shop);
    /// The rate field of an operator code (objectName "discountRate_<CODE>"), or nullptr.
    QDoubleSpinBox *rateField(const QString &operatorCode) const { return m_rateFields.value(operatorCode); }

private:
    void onSaveClicked();
    void onResetClicked();

    TerminalContext &m_context;
    std::unique_ptr<Ui::SaleTermsCard> m_ui; ///< the form of saletermscard.ui
    QHash<QString, QDoubleSpinBox *> m_rateFields;
    QHash<QString, int> m_savedBasisPoints;
    QHash<QString, int> m_defaultBasisPoints;
    double m_shownSettleDelay = -1; ///< the delay as last shown from the server (seconds, rounded)
    std::unique_ptr<FormErrors> m_errors;
};
