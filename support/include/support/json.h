// Reading JSON files: the records one Brickyard process writes for another (a run's report, an
// eval report, a sweep point's result) are read back by type, `readRecord<T>`, through the
// type's from_json; a file that is missing, not JSON or not such a record is one FileError
// naming the file.
#pragma once

#include "support/files.h"

#include <nlohmann/json.hpp>

namespace by::support {

/// The file parsed as JSON (nlohmann::json, or nlohmann::ordered_json to keep the key order).
template <class Json = nlohmann::json> Json readJson(const std::filesystem::path& path) {
  const std::string text = readFile(path);
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw FileError(path.string() + ": not valid JSON: " + e.what());
  }
}

/// The file as a T (its from_json for `Json`: ordered_json where the order of keys means
/// something).
template <class T, class Json = nlohmann::json> T readRecord(const std::filesystem::path& path) {
  const Json j = readJson<Json>(path);
  try {
    return j.template get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw FileError(path.string() + ": not the record expected: " + e.what());
  }
}

} // namespace by::support
