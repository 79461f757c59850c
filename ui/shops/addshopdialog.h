#pragma once

#include "shopformdialog.h"
#include "shopsapi.h"

class ApiClient;
class OperatorCatalog;
class QComboBox;
class QLineEdit;

/// Back office → Shops → Add shop… (issue 30): a new shop's name, owner, mobile, circle and optional GSTIN, checked
/// as the server checks them (name 2–60, owner 1–80, a 10-digit mobile starting 6–9 with "+91" or "0" taken off, a
/// circle, Validators::isGstin), then POST /api/v1/shops. On success added() carries the new shop and its key, whose
/// secret the caller shows once with the connect lines. Fields: "shopName", "shopOwner", "shopMobile", "shopCircle",
/// "shopGstin".
class AddShopDialog final : public ShopFormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AddShopDialog)

public:
    AddShopDialog(ApiClient &api, const OperatorCatalog &catalog, QWidget *parent = nullptr);

    /// The mobile number as the server keeps it: blanks, a "+91" or "91" before 10 digits, or a leading "0" taken off.
    static QString normalisedMobile(const QString &typed);
    /// The form's values as they would be sent (trimmed, normalised).
    ShopsApi::NewShop values() const;

signals:
    void added(const ShopCreated &created);

protected:
    void submit() override;

private:
    ApiClient &m_api;
    QLineEdit *m_name;
    QLineEdit *m_owner;
    QLineEdit *m_mobile;
    QComboBox *m_circle;
    QLineEdit *m_gstin;
};
