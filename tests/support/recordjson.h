#pragma once

#include "entities/transactionrecord.h"

#include <QJsonObject>
#include <QtGlobal>

/// `json`, a spec transaction record a test wrote or a server answered, decoded as the terminal decodes the
/// server's answers (TransactionRecord::fromJson, strictly). A test record that does not decode stops the test
/// program: its data is wrong, not the code under test.
inline TransactionRecord decodedRecord(const QJsonObject &json)
{
    QString error;
    const std::optional<TransactionRecord> record = TransactionRecord::fromJson(json, &error);
    if (!record)
        qFatal("a test's transaction record does not decode: %s", qPrintable(error));
    return *record;
}
