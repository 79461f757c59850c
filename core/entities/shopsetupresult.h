#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

/// What the terminal's first run sends to POST /api/v1/setup (issue 14): the shop and its first admin.
struct ShopSetupRequest
{
    QString shopName;
    QString shopAddress; ///< may be empty
    QString adminName;
    QString adminPin; ///< 6 to 8 digits, as text

    /// {shop_name, shop_address, admin_name, admin_pin}.
    QJsonObject toJson() const;
};

/// The answer of POST /api/v1/setup (the `shop_setup` entity, 201): the live admin key made for the terminal,
/// its secret shown this once.
struct ShopSetupResult
{
    QString keyId;
    QString keySecret;

    /// Decodes the `shop_setup` entity; nullopt with `*error` naming the field when one is missing or mistyped.
    static std::optional<ShopSetupResult> fromJson(const QJsonObject &json, QString *error);
    QJsonObject toJson() const;
};
