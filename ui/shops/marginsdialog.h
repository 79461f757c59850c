#pragma once

#include "entities/shop.h"
#include "shopformdialog.h"

#include <QHash>
#include <QMap>

class ApiClient;
class OperatorCatalog;
class QDoubleSpinBox;

/// Back office → Shops → Margins… (issue 30): the discount (commission) a shop receives per operator, as a
/// percentage with two decimals beside the catalogue's default — the shop's live sale terms, which only the
/// distributor sets. Loads GET /api/v1/shops/{id}/margins and saves the changed rates with PUT (0–20 %). Each rate is
/// the spin box "margin_<CODE>".
class MarginsDialog final : public ShopFormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MarginsDialog)

public:
    MarginsDialog(ApiClient &api, const OperatorCatalog &catalog, const Shop &shop, QWidget *parent = nullptr);

    /// The rate field of `operatorCode`, or nullptr.
    QDoubleSpinBox *rateField(const QString &operatorCode) const { return m_fields.value(operatorCode); }
    /// True once the shop's rates arrived (the fields show them).
    bool isLoaded() const { return m_loaded; }

signals:
    /// The server saved them: every operator's discount, basis points.
    void saved(const QMap<QString, int> &basisPoints);

protected:
    void submit() override;

private:
    void showRates(const QMap<QString, int> &basisPoints);

    ApiClient &m_api;
    qint64 m_shopId;
    QHash<QString, QDoubleSpinBox *> m_fields;
    QMap<QString, int> m_shown;
    QDoubleSpinBox *m_first = nullptr; ///< the first rate, focused once the rates arrive
    bool m_loaded = false;
};
