#pragma once

#include <QCoreApplication>

class QWidget;
class SecretDialog;
struct IssuedShopKey;

/// Shows a shop's new key once (issue 30: a shop added, a key made or rotated): the SecretDialog of the back office
/// (secret with Copy, the warning that it is shown only this once) with, below, the lines the shop runs to connect
/// to this server (read-only "connectLines", copied with "copyConnectLines").
class ShopKeyReveal
{
    Q_DECLARE_TR_FUNCTIONS(ShopKeyReveal)

public:
    /// Opens the dialog window-modal over `parent` (deleted on close) and returns it.
    static SecretDialog *open(QWidget *parent, const QString &shopName, const IssuedShopKey &key);
};
