export const id = 638;
export const ids = [638];
export const modules = {

/***/ 11638:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  FindingsExport: () => (/* binding */ FindingsExport),
  runSource: () => (/* binding */ runSource),
  writeExports: () => (/* binding */ writeExports)
});

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/common/files.js
var files = __webpack_require__(21976);
;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/utils/get.js
// Lodash implementation of `get`

const charCodeOfDot = ".".charCodeAt(0);
const reEscapeChar = /\\(\\)?/g;
const rePropName = RegExp(
  // Match anything that isn't a dot or bracket.
  "[^.[\\]]+" +
    "|" +
    // Or match property names within brackets.
    "\\[(?:" +
    // Match a non-string expression.
    "([^\"'][^[]*)" +
    "|" +
    // Or match strings (supports escaping characters).
    "([\"'])((?:(?!\\2)[^\\\\]|\\\\.)*?)\\2" +
    ")\\]" +
    "|" +
    // Or match "" as the space between consecutive dots or empty brackets.
    "(?=(?:\\.|\\[\\])(?:\\.|\\[\\]|$))",
  "g",
);
const reIsDeepProp = /\.|\[(?:[^[\]]*|(["'])(?:(?!\1)[^\\]|\\.)*?\1)\]/;
const reIsPlainProp = /^\w*$/;

const getTag = function (value) {
  // if (!value) value === undefined ? "[object Undefined]" : "[object Null]";
  return Object.prototype.toString.call(value);
};

const isSymbol = function (value) {
  const type = typeof value;
  return (
    type === "symbol" ||
    (type === "object" && value && getTag(value) === "[object Symbol]")
  );
};

const isKey = function (value, object) {
  if (Array.isArray(value)) {
    return false;
  }
  const type = typeof value;
  if (
    type === "number" ||
    type === "symbol" ||
    type === "boolean" ||
    !value ||
    isSymbol(value)
  ) {
    return true;
  }
  return (
    reIsPlainProp.test(value) ||
    !reIsDeepProp.test(value) ||
    (object != null && value in Object(object))
  );
};

const stringToPath = function (string) {
  const result = [];
  if (string.charCodeAt(0) === charCodeOfDot) {
    result.push("");
  }
  string.replace(rePropName, function (match, expression, quote, subString) {
    let key = match;
    if (quote) {
      key = subString.replace(reEscapeChar, "$1");
    } else if (expression) {
      key = expression.trim();
    }
    result.push(key);
  });
  return result;
};

const castPath = function (value, object) {
  if (Array.isArray(value)) {
    return value;
  } else {
    return isKey(value, object) ? [value] : stringToPath(value);
  }
};

const toKey = function (value) {
  if (typeof value === "string" || isSymbol(value)) return value;
  const result = `${value}`;
  return result == "0" && 1 / value == -Infinity ? "-0" : result;
};

const get = function (object, path) {
  path = castPath(path, object);
  let index = 0;
  const length = path.length;
  while (object != null && index < length) {
    object = object[toKey(path[index++])];
  }
  return index && index === length ? object : undefined;
};



;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/utils/is_object.js
const is_object = function (obj) {
  return typeof obj === "object" && obj !== null && !Array.isArray(obj);
};



;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/api/normalize_columns.js
const normalize_columns = function (columns) {
  if (columns === undefined || columns === null) {
    return [undefined, undefined];
  }
  if (typeof columns !== "object") {
    return [Error('Invalid option "columns": expect an array or an object')];
  }
  if (!Array.isArray(columns)) {
    const newcolumns = [];
    for (const k in columns) {
      newcolumns.push({
        key: k,
        header: columns[k],
      });
    }
    columns = newcolumns;
  } else {
    const newcolumns = [];
    for (const column of columns) {
      if (typeof column === "string") {
        newcolumns.push({
          key: column,
          header: column,
        });
      } else if (
        typeof column === "object" &&
        column !== null &&
        !Array.isArray(column)
      ) {
        if (!column.key) {
          return [
            Error('Invalid column definition: property "key" is required'),
          ];
        }
        if (column.header === undefined) {
          column.header = column.key;
        }
        newcolumns.push(column);
      } else {
        return [
          Error("Invalid column definition: expect a string or an object"),
        ];
      }
    }
    columns = newcolumns;
  }
  return [undefined, columns];
};



;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/api/CsvError.js
class CsvError extends Error {
  constructor(code, message, ...contexts) {
    if (Array.isArray(message)) message = message.join(" ");
    super(message);
    if (Error.captureStackTrace !== undefined) {
      Error.captureStackTrace(this, CsvError);
    }
    this.code = code;
    for (const context of contexts) {
      for (const key in context) {
        const value = context[key];
        this[key] = Buffer.isBuffer(value)
          ? value.toString()
          : value == null
            ? value
            : JSON.parse(JSON.stringify(value));
      }
    }
  }
}



;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/utils/underscore.js
const underscore = function (str) {
  return str.replace(/([A-Z])/g, function (_, match) {
    return "_" + match.toLowerCase();
  });
};



;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/api/normalize_options.js




const normalize_options = function (opts) {
  const options = {};
  // Merge with user options
  for (const opt in opts) {
    options[underscore(opt)] = opts[opt];
  }
  // Normalize option `bom`
  if (
    options.bom === undefined ||
    options.bom === null ||
    options.bom === false
  ) {
    options.bom = false;
  } else if (options.bom !== true) {
    return [
      new CsvError("CSV_OPTION_BOOLEAN_INVALID_TYPE", [
        "option `bom` is optional and must be a boolean value,",
        `got ${JSON.stringify(options.bom)}`,
      ]),
    ];
  }
  // Normalize option `delimiter`
  if (options.delimiter === undefined || options.delimiter === null) {
    options.delimiter = ",";
  } else if (Buffer.isBuffer(options.delimiter)) {
    options.delimiter = options.delimiter.toString();
  } else if (typeof options.delimiter !== "string") {
    return [
      new CsvError("CSV_OPTION_DELIMITER_INVALID_TYPE", [
        "option `delimiter` must be a buffer or a string,",
        `got ${JSON.stringify(options.delimiter)}`,
      ]),
    ];
  }
  // Normalize option `quote`
  if (options.quote === undefined || options.quote === null) {
    options.quote = '"';
  } else if (options.quote === true) {
    options.quote = '"';
  } else if (options.quote === false) {
    options.quote = "";
  } else if (Buffer.isBuffer(options.quote)) {
    options.quote = options.quote.toString();
  } else if (typeof options.quote !== "string") {
    return [
      new CsvError("CSV_OPTION_QUOTE_INVALID_TYPE", [
        "option `quote` must be a boolean, a buffer or a string,",
        `got ${JSON.stringify(options.quote)}`,
      ]),
    ];
  }
  // Normalize option `quoted`
  if (options.quoted === undefined || options.quoted === null) {
    options.quoted = false;
  } else {
    // todo
  }
  // Normalize option `escape_formulas`
  if (
    options.escape_formulas === undefined ||
    options.escape_formulas === null
  ) {
    options.escape_formulas = false;
  } else if (typeof options.escape_formulas !== "boolean") {
    return [
      new CsvError("CSV_OPTION_ESCAPE_FORMULAS_INVALID_TYPE", [
        "option `escape_formulas` must be a boolean,",
        `got ${JSON.stringify(options.escape_formulas)}`,
      ]),
    ];
  }
  // Normalize option `quoted_empty`
  if (options.quoted_empty === undefined || options.quoted_empty === null) {
    options.quoted_empty = undefined;
  } else {
    // todo
  }
  // Normalize option `quoted_match`
  if (
    options.quoted_match === undefined ||
    options.quoted_match === null ||
    options.quoted_match === false
  ) {
    options.quoted_match = null;
  } else if (!Array.isArray(options.quoted_match)) {
    options.quoted_match = [options.quoted_match];
  }
  if (options.quoted_match) {
    for (const quoted_match of options.quoted_match) {
      const isString = typeof quoted_match === "string";
      const isRegExp = quoted_match instanceof RegExp;
      if (!isString && !isRegExp) {
        return [
          new CsvError("CSV_OPTION_QUOTED_MATCH", [
            "option `quoted_match` must be a string or a regex,",
            `got ${JSON.stringify(options.quoted_match)}`,
          ]),
        ];
      }
    }
  }
  // Normalize option `quoted_string`
  if (options.quoted_string === undefined || options.quoted_string === null) {
    options.quoted_string = false;
  } else {
    // todo
  }
  // Normalize option `eof`
  if (options.eof === undefined || options.eof === null) {
    options.eof = true;
  } else {
    // todo
  }
  // Normalize option `escape`
  if (options.escape === undefined || options.escape === null) {
    options.escape = '"';
  } else if (Buffer.isBuffer(options.escape)) {
    options.escape = options.escape.toString();
  } else if (typeof options.escape !== "string") {
    return [
      Error(
        `Invalid Option: escape must be a buffer or a string, got ${JSON.stringify(options.escape)}`,
      ),
    ];
  }
  if (options.escape.length > 1) {
    return [
      Error(
        `Invalid Option: escape must be one character, got ${options.escape.length} characters`,
      ),
    ];
  }
  // Normalize option `header`
  if (
    options.header === undefined ||
    options.header === null ||
    options.header === false
  ) {
    options.header = false;
  } else if (options.header !== true) {
    throw new CsvError(
      "CSV_INVALID_OPTION_HEADER",
      [
        "option `header` is expected to be a boolean,",
        `got ${JSON.stringify(options.header)}`,
      ],
      options,
    );
  }
  // Normalize option `headers_as_comment`
  if (
    options.header_as_comment === undefined ||
    options.header_as_comment === null ||
    options.header_as_comment === false
  ) {
    options.header_as_comment = false;
  } else if (options.header_as_comment === true) {
    options.header_as_comment = "#";
  } else if (Buffer.isBuffer(options.header_as_comment)) {
    options.header_as_comment = options.header_as_comment.toString();
  } else if (typeof options.header_as_comment !== "string") {
    throw new CsvError(
      "CSV_INVALID_OPTION_HEADER_AS_COMMENT",
      [
        "option `header_as_comment` must be a boolean, a string or a buffer,",
        `got ${JSON.stringify(options.header_as_comment)}`,
      ],
      options,
    );
  }
  // if (options.header_as_comment && !options.comment?.length) {
  //   throw new CsvError(
  //     "CSV_INVALID_OPTION_COMMENT",
  //     [
  //       "option `comment` must be a non empty string or buffer when using `header_as_comment`,",
  //       `got ${JSON.stringify(options.comment)}`,
  //     ],
  //     options,
  //   );
  // }
  // Header is always enabled with `header_as_comment`
  // if (options.header_as_comment === true) {
  //   options.header = true;
  // }
  // Normalize option `columns`
  const [errColumns, columns] = normalize_columns(options.columns);
  if (errColumns !== undefined) return [errColumns];
  options.columns = columns;
  // Normalize option `quoted`
  if (options.quoted === undefined || options.quoted === null) {
    options.quoted = false;
  } else {
    // todo
  }
  // Normalize option `cast`
  if (options.cast === undefined || options.cast === null) {
    options.cast = {};
  } else {
    // todo
  }
  // Normalize option cast.bigint
  if (options.cast.bigint === undefined || options.cast.bigint === null) {
    // Cast boolean to string by default
    options.cast.bigint = (value) => "" + value;
  }
  // Normalize option cast.boolean
  if (options.cast.boolean === undefined || options.cast.boolean === null) {
    // Cast boolean to string by default
    options.cast.boolean = (value) => (value ? "1" : "");
  }
  // Normalize option cast.date
  if (options.cast.date === undefined || options.cast.date === null) {
    // Cast date to timestamp string by default
    options.cast.date = (value) => "" + value.getTime();
  }
  // Normalize option cast.number
  if (options.cast.number === undefined || options.cast.number === null) {
    // Cast number to string using native casting by default
    options.cast.number = (value) => "" + value;
  }
  // Normalize option cast.object
  if (options.cast.object === undefined || options.cast.object === null) {
    // Stringify object as JSON by default
    options.cast.object = (value) => JSON.stringify(value);
  }
  // Normalize option cast.string
  if (options.cast.string === undefined || options.cast.string === null) {
    // Leave string untouched
    options.cast.string = function (value) {
      return value;
    };
  }
  // Normalize option `on_record`
  if (
    options.on_record !== undefined &&
    typeof options.on_record !== "function"
  ) {
    return [Error(`Invalid Option: "on_record" must be a function.`)];
  }
  // Normalize option `quote_record_delimiter`
  if (
    options.quote_record_delimiter === undefined ||
    options.quote_record_delimiter === null
  ) {
    options.quote_record_delimiter = !options.record_delimiter;
  } else if (typeof options.quote_record_delimiter !== "boolean") {
    return [
      new CsvError("CSV_OPTION_QUOTE_RECORD_DELIMITER_INVALID_TYPE", [
        "option `quote_record_delimiter` must be a boolean,",
        `got ${JSON.stringify(options.quote_record_delimiter)}`,
      ]),
    ];
  }
  // Normalize option `record_delimiter`
  if (
    options.record_delimiter === undefined ||
    options.record_delimiter === null
  ) {
    options.record_delimiter = "\n";
  } else if (Buffer.isBuffer(options.record_delimiter)) {
    options.record_delimiter = options.record_delimiter.toString();
  } else if (typeof options.record_delimiter !== "string") {
    return [
      Error(
        `Invalid Option: record_delimiter must be a buffer or a string, got ${JSON.stringify(options.record_delimiter)}`,
      ),
    ];
  }
  switch (options.record_delimiter) {
    case "unix":
      options.record_delimiter = "\n";
      break;
    case "mac":
      options.record_delimiter = "\r";
      break;
    case "windows":
      options.record_delimiter = "\r\n";
      break;
    case "ascii":
      options.record_delimiter = "\u001e";
      break;
    case "unicode":
      options.record_delimiter = "\u2028";
      break;
  }
  return [undefined, options];
};



;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/api/index.js




const bom_utf8 = Buffer.from([239, 187, 191]);
// True when appending `separator` after `value` would let `parse` find
// `separator` starting inside `value`. Besides the field containing the whole
// separator, this also covers boundary fusion: a field whose tail is a
// non-empty prefix of a multi-character separator merges with the appended
// separator (eg value "a:" + delimiter "::" => "a:::", matched at offset 1).
// Such fields must be quoted to round-trip, like RFC 4180 fields containing the
// delimiter, generalized to multi-character delimiters and record delimiters.
const emits_separator = function (value, separators) {
  return separators.some(
    (separator) =>
      separator.length !== 0 &&
      (value.indexOf(separator) !== -1 ||
        (separator.length > 1 &&
          (value + separator).indexOf(separator) < value.length)),
  );
};
// True when `value` matches one of the `quoted_match` patterns. The regexps
// come from the user and the same objects are reused for every field, so the
// test must not depend on their state: `RegExp.prototype.test` advances
// `lastIndex` on a global or sticky regexp, which would make a match in one
// field move where the next field starts matching. `String.prototype.search`
// searches from the start and restores `lastIndex`, and is equivalent to
// `test` for the stateless regexps.
const matches_quoted_match = function (value, quoted_match) {
  if (!quoted_match) return false;
  return quoted_match.some((pattern) =>
    typeof pattern === "string"
      ? value.indexOf(pattern) !== -1
      : value.search(pattern) !== -1,
  );
};

const stringifier = function (options, state, info) {
  return {
    options: options,
    state: state,
    info: info,
    __transform: function (chunk, push) {
      // Chunk validation
      if (!Array.isArray(chunk) && typeof chunk !== "object") {
        return Error(
          `Invalid Record: expect an array or an object, got ${JSON.stringify(chunk)}`,
        );
      }
      // Detect columns from the first record
      if (this.info.records === 0) {
        if (Array.isArray(chunk)) {
          if (
            this.options.header === true &&
            this.options.columns === undefined
          ) {
            return Error(
              "Undiscoverable Columns: header option requires column option or object records",
            );
          }
        } else if (this.options.columns === undefined) {
          const [err, columns] = normalize_columns(Object.keys(chunk));
          if (err) return;
          this.options.columns = columns;
        }
      }
      // Emit the header
      if (this.info.records === 0) {
        this.bom(push);
        const err = this.headers(push);
        if (err) return err;
      }
      // Emit and stringify the record if an object or an array
      try {
        // this.emit('record', chunk, this.info.records);
        if (this.options.on_record) {
          this.options.on_record(chunk, this.info.records);
        }
      } catch (err) {
        return err;
      }
      // Convert the record into a string
      let err, chunk_string;
      if (this.options.eof) {
        [err, chunk_string] = this.stringify(chunk);
        if (err) return err;
        if (chunk_string === undefined) {
          return;
        } else {
          chunk_string = chunk_string + this.options.record_delimiter;
        }
      } else {
        [err, chunk_string] = this.stringify(chunk);
        if (err) return err;
        if (chunk_string === undefined) {
          return;
        } else {
          if (this.options.header || this.info.records) {
            chunk_string = this.options.record_delimiter + chunk_string;
          }
        }
      }
      // Emit the csv
      this.info.records++;
      push(chunk_string);
    },
    stringify: function (chunk, chunkIsHeader = false) {
      if (typeof chunk !== "object") {
        return [undefined, chunk];
      }
      const { columns } = this.options;
      const record = [];
      // Record is an array
      if (Array.isArray(chunk)) {
        // We are getting an array but the user has specified output columns. In
        // this case, we respect the columns indexes
        const length = columns
          ? Math.min(chunk.length, columns.length)
          : chunk.length;
        // Cast record elements
        for (let i = 0; i < length; i++) {
          const field = chunk[i];
          const [err, value] = this.__cast(field, {
            index: i,
            column: i,
            records: this.info.records,
            header: chunkIsHeader,
          });
          if (err) return [err];
          record[i] = [value, field];
        }
        // Record is a literal object
        // `columns` is always defined: it is either provided or discovered.
      } else {
        for (let i = 0; i < columns.length; i++) {
          const field = get(chunk, columns[i].key);
          const [err, value] = this.__cast(field, {
            index: i,
            column: columns[i].key,
            records: this.info.records,
            header: chunkIsHeader,
          });
          if (err) return [err];
          record[i] = [value, field];
        }
      }
      let csvrecord = "";
      for (let i = 0; i < record.length; i++) {
        let options, err;

        let [value, field] = record[i];
        if (typeof value === "string") {
          options = this.options;
        } else if (is_object(value)) {
          // Value is considerered as a mix of a value and options
          options = { ...value };
          value = options.value;
          delete options.value;
          if (
            typeof value !== "string" &&
            value !== undefined &&
            value !== null
          ) {
            if (err)
              return [
                Error(
                  `Invalid Casting Value: returned value must return a string, null or undefined, got ${JSON.stringify(value)}`,
                ),
              ];
          }
          // Merge global options with the ones returned by cast
          options = { ...this.options, ...options };
          [err, options] = normalize_options(options);
          if (err !== undefined) {
            return [err];
          }
        } else if (value === undefined || value === null) {
          options = this.options;
        } else {
          return [
            Error(
              `Invalid Casting Value: returned value must return a string, an object, null or undefined, got ${JSON.stringify(value)}`,
            ),
          ];
        }
        const {
          delimiter,
          escape,
          quote,
          quoted,
          quoted_empty,
          quoted_string,
          quoted_match,
          record_delimiter,
          quote_record_delimiter,
          escape_formulas,
        } = options;
        if ("" === value && "" === field) {
          const quotedMatch = matches_quoted_match(value, quoted_match);
          const shouldQuote =
            quotedMatch ||
            true === quoted_empty ||
            (true === quoted_string && false !== quoted_empty);
          if (shouldQuote === true) {
            value = quote + value + quote;
          }
          csvrecord += value;
        } else if (value) {
          if (typeof value !== "string") {
            return [
              Error(
                `Formatter must return a string, null or undefined, got ${JSON.stringify(value)}`,
              ),
            ];
          }
          const containsdelimiter = emits_separator(value, [delimiter]);
          const containsQuote = quote !== "" && value.indexOf(quote) >= 0;
          const containsEscape = value.indexOf(escape) >= 0 && escape !== quote;
          // Testing `\n` and `\r` covers the three sequences `parse` discovers
          const containsRecordDelimiter = emits_separator(value, [
            record_delimiter,
            ...(quote_record_delimiter === false ? [] : ["\n", "\r"]),
          ]);
          const quotedString = quoted_string && typeof field === "string";
          const quotedMatch = matches_quoted_match(value, quoted_match);
          // See https://github.com/adaltas/node-csv/pull/387
          // More about CSV injection or formula injection, when websites embed
          // untrusted input inside CSV files:
          // https://owasp.org/www-community/attacks/CSV_Injection
          // http://georgemauer.net/2017/10/07/csv-injection.html
          // Apple Numbers unicode normalization is empirical from testing
          if (escape_formulas) {
            switch (value[0]) {
              case "-":
                if (typeof field === "number" || typeof field === "bigint") {
                  break;
                }
                value = `'${value}`;
                break;
              case "=":
              case "+":
              case "@":
              case "\t":
              case "\r":
              case "\uFF1D": // Unicode '='
              case "\uFF0B": // Unicode '+'
              case "\uFF0D": // Unicode '-'
              case "\uFF20": // Unicode '@'
                value = `'${value}`;
                break;
            }
          }
          const shouldQuote =
            containsQuote === true ||
            containsdelimiter ||
            containsRecordDelimiter ||
            quoted ||
            quotedString ||
            quotedMatch;
          if (shouldQuote === true && containsEscape === true) {
            value = value.replaceAll(escape, () => escape + escape);
          }
          if (containsQuote === true) {
            value = value.replaceAll(quote, () => escape + quote);
          }
          if (shouldQuote === true) {
            value = quote + value + quote;
          }
          csvrecord += value;
        } else if (
          quoted_empty === true ||
          (field === "" && quoted_string === true && quoted_empty !== false)
        ) {
          csvrecord += quote + quote;
        }
        if (i !== record.length - 1) {
          csvrecord += delimiter;
        }
      }
      return [undefined, csvrecord];
    },
    bom: function (push) {
      if (this.options.bom !== true) {
        return;
      }
      push(bom_utf8);
    },
    headers: function (push) {
      if (this.options.header === false) {
        return;
      }
      if (this.options.columns === undefined) {
        return;
      }
      let err;
      let headers = this.options.columns.map((column) => column.header);
      if (this.options.eof) {
        [err, headers] = this.stringify(headers, true);
        headers += this.options.record_delimiter;
      } else {
        [err, headers] = this.stringify(headers, true);
      }
      if (err) return err;
      if (this.options.header_as_comment) {
        headers = this.options.header_as_comment + " " + headers;
      }
      push(headers);
    },
    __cast: function (value, context) {
      const type = typeof value;
      try {
        if (type === "string") {
          // Fine for 99% of the cases
          return [undefined, this.options.cast.string(value, context)];
        } else if (type === "bigint") {
          return [undefined, this.options.cast.bigint(value, context)];
        } else if (type === "number") {
          return [undefined, this.options.cast.number(value, context)];
        } else if (type === "boolean") {
          return [undefined, this.options.cast.boolean(value, context)];
        } else if (value instanceof Date) {
          return [undefined, this.options.cast.date(value, context)];
        } else if (type === "object" && value !== null) {
          return [undefined, this.options.cast.object(value, context)];
        } else if (value === null && this.options.cast.null !== undefined) {
          return [undefined, this.options.cast.null(value, context)];
        } else if (
          value === undefined &&
          this.options.cast.undefined !== undefined
        ) {
          return [undefined, this.options.cast.undefined(value, context)];
        } else {
          return [undefined, value];
        }
      } catch (err) {
        return [err];
      }
    },
  };
};



;// CONCATENATED MODULE: ./node_modules/csv-stringify/lib/sync.js
/*
CSV Stringify

Please look at the [Sync API](https://csv.js.org/stringify/api/sync/) for
additional information.
*/




const stringify = function (records, opts = {}) {
  const data = [];
  const [err, options] = normalize_options(opts);
  if (err !== undefined) throw err;
  const state = {
    stop: false,
  };
  // Information
  const info = {
    records: 0,
  };
  const api = stringifier(options, state, info);
  for (const record of records) {
    const err = api.__transform(record, function (record) {
      data.push(record);
    });
    if (err !== undefined) throw err;
  }
  if (data.length === 0) {
    api.bom((d) => {
      data.push(d);
    });
    const err = api.headers((headers) => {
      data.push(headers);
    });
    if (err !== undefined) throw err;
  }
  return data.join("");
};



;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/csv.js
// The findings as CSV for a spreadsheet (csv-stringify): one row per finding, a UTF-8 BOM so that
// Excel reads the text as UTF-8, and OWASP's rule against formula injection
// (https://owasp.org/www-community/attacks/CSV_Injection): every field wrapped in double quotes,
// every double quote doubled, and a single quote before a cell that would begin with = + - @, a tab
// or a carriage return (or their full-width forms) — the library's escape_formulas — or with a
// line feed, which the page lists too and the library does not. Quoting every field keeps a
// separator or a quote inside service text from starting a cell of its own.

/** The header, one column per field of a row, in order. */
const CSV_COLUMNS = [
    'Tenant',
    'Scan',
    'Check ID',
    'Title',
    'Severity',
    'Result',
    'Category',
    'State',
    'Fails gate',
    'Failing since',
    'Deadline',
    'Overdue',
    'Waived until',
    'Waiver reason',
    'Waiver owner',
    'Disposition',
    'Remediation',
    'Help link',
];
const yesNo = (value) => value === undefined ? '' : value ? 'yes' : 'no';
/** A row's cells, as plain text (neutralised when written). */
function csvCells(row) {
    const waiver = row.waiver;
    return [
        row.tenant,
        row.scanId ?? '',
        row.checkId,
        row.title,
        row.severity,
        row.result,
        row.category ?? '',
        row.state ?? '',
        yesNo(row.gating),
        row.failingSince ?? '',
        row.dueAt ?? '',
        yesNo(row.overdue),
        waiver?.expires ?? '',
        waiver?.reason ?? '',
        waiver?.owner ?? '',
        waiver?.disposition ?? '',
        row.remediation ?? '',
        row.reference ?? '',
    ];
}
/** A line feed opens a formula in some spreadsheets too (OWASP); the library's set lacks it. */
function quoteLeadingLineFeed(value) {
    return value.startsWith('\n') ? `'${value}` : value;
}
const OPTIONS = {
    quoted: true,
    quoted_empty: true,
    escape_formulas: true,
    record_delimiter: 'windows',
    cast: { string: quoteLeadingLineFeed },
};
/** The BOM and the header line: the start of every CSV file. */
function csvHead() {
    return stringify([[...CSV_COLUMNS]], { ...OPTIONS, bom: true });
}
/** The lines of `rows` (no header), each row's cells neutralised. */
function csvLines(rows) {
    if (rows.length === 0)
        return '';
    return stringify(rows.map(csvCells), OPTIONS);
}

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/export-rows.js
var export_rows = __webpack_require__(84191);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/client/index.js + 39 modules
var client = __webpack_require__(70953);
// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/common/markdown.js
var markdown = __webpack_require__(17702);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/ocsf.js
// The findings as OCSF 1.3.0 Detection Findings (class_uid 2004), one JSON object per line (JSON
// Lines: what log shippers and SIEM collectors read, and what streams for a fleet). Built from the
// class as the ocsf/ocsf-schema repository defines it at tag 1.3.0; the file
// schemas/ocsf-detection-finding-1.3.json is what we emit, and the tests validate every event
// against it. The cloud profile is applied (the tenant is the cloud account).


const OCSF_VERSION = '1.3.0';
const CATEGORY = { uid: 2, name: 'Findings' };
const CLASS = { uid: 2004, name: 'Detection Finding' };
/** The service the tenant account lives in: the seed calls it the Tenant API and names no cloud. */
const OCSF_PROVIDER = 'Tenant API';
/** OCSF's string_t holds at most this many characters. */
const MAX_STRING = 65_535;
/** severity_id of the dictionary: 1 Informational … 5 Critical, 0 Unknown. */
const SEVERITY_ID = {
    info: { id: 1, caption: 'Informational' },
    low: { id: 2, caption: 'Low' },
    medium: { id: 3, caption: 'Medium' },
    high: { id: 4, caption: 'High' },
    critical: { id: 5, caption: 'Critical' },
    unknown: { id: 0, caption: 'Unknown' },
};
/** The finding class's status_id: New, In Progress, Suppressed, Resolved. */
const STATUS = {
    new: { id: 1, caption: 'New' },
    inProgress: { id: 2, caption: 'In Progress' },
    suppressed: { id: 3, caption: 'Suppressed' },
    resolved: { id: 4, caption: 'Resolved' },
};
/** The finding class's activity_id: Create, Update, Close. */
const ACTIVITY = {
    create: { id: 1, caption: 'Create' },
    update: { id: 2, caption: 'Update' },
    close: { id: 3, caption: 'Close' },
};
/** Fixed: resolved (closed). Waived: suppressed. Failing since the baseline: in progress (updated).
 *  Else new: not in the baseline, or no baseline to say otherwise. */
function statusOf(row) {
    if (row.state === 'fixed')
        return { status: STATUS.resolved, activity: ACTIVITY.close };
    const activity = row.state === 'unchanged' ? ACTIVITY.update : ACTIVITY.create;
    if (row.waiver)
        return { status: STATUS.suppressed, activity };
    if (row.state === 'unchanged')
        return { status: STATUS.inProgress, activity };
    return { status: STATUS.new, activity };
}
function ocsf_text(value) {
    return (0,markdown/* cutChars */.oN)(value, MAX_STRING);
}
/** Epoch milliseconds of an ISO time (OCSF's timestamp_t), or undefined. */
function millis(iso) {
    const ms = iso === null ? Number.NaN : Date.parse(iso);
    return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
/** A help link that is an http(s) address (url_t), else undefined. */
function webAddress(reference) {
    if (reference === null)
        return undefined;
    try {
        const url = new URL(reference);
        return url.protocol === 'https:' || url.protocol === 'http:' ? ocsf_text(url.href) : undefined;
    }
    catch {
        return undefined;
    }
}
function defined(object) {
    return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}
function statusDetail(row) {
    if (row.state === 'fixed')
        return 'failed in the baseline, not failed now';
    if (!row.waiver)
        return undefined;
    return ocsf_text(`waived until ${row.waiver.expires} (${row.waiver.disposition})`);
}
/** What OCSF has no attribute for: the scan, the gate's judgement, the deadline, the waiver. */
function unmapped(row) {
    return defined({
        scan_id: row.scanId ?? undefined,
        result: row.result === '' ? undefined : ocsf_text(row.result),
        baseline_state: row.state,
        fails_gate: row.gating,
        due_at: row.dueAt ?? undefined,
        overdue: row.overdue,
        waiver: row.waiver
            ? defined({
                expires: ocsf_text(row.waiver.expires),
                reason: ocsf_text(row.waiver.reason),
                owner: row.waiver.owner === null ? undefined : ocsf_text(row.waiver.owner),
                disposition: ocsf_text(row.waiver.disposition),
            })
            : undefined,
    });
}
/** One Detection Finding of a row; `nowMs` stands for its time when the row has none. */
function ocsfFinding(row, nowMs) {
    const { status, activity } = statusOf(row);
    const severity = SEVERITY_ID[row.severity];
    const tenant = ocsf_text(row.tenant === '' ? 'unknown tenant' : row.tenant);
    const time = millis(row.time) ?? nowMs;
    return defined({
        activity_id: activity.id,
        activity_name: activity.caption,
        category_uid: CATEGORY.uid,
        category_name: CATEGORY.name,
        class_uid: CLASS.uid,
        class_name: CLASS.name,
        type_uid: CLASS.uid * 100 + activity.id,
        type_name: `${CLASS.name}: ${activity.caption}`,
        time,
        severity_id: severity.id,
        severity: severity.caption,
        status_id: status.id,
        status: status.caption,
        status_detail: statusDetail(row),
        message: ocsf_text(row.title),
        comment: row.waiver ? ocsf_text(row.waiver.reason) : undefined,
        metadata: {
            version: OCSF_VERSION,
            profiles: ['cloud'],
            product: { name: 'tenant-scan', vendor_name: 'tenant-scan', version: client/* CLIENT_VERSION */.fZ },
        },
        finding_info: defined({
            uid: ocsf_text(row.checkId),
            title: ocsf_text(row.title),
            desc: row.description === null ? undefined : ocsf_text(row.description),
            types: row.category === null ? undefined : [ocsf_text(row.category)],
            src_url: webAddress(row.reference),
            first_seen_time: millis(row.failingSince),
            last_seen_time: row.state === 'fixed' ? undefined : time,
        }),
        cloud: { provider: OCSF_PROVIDER, account: { name: tenant, uid: tenant } },
        resources: [{ type: 'Tenant', name: tenant, uid: tenant }],
        remediation: row.remediation === null
            ? undefined
            : defined({
                desc: ocsf_text(row.remediation),
                references: row.reference === null ? undefined : [ocsf_text(row.reference)],
            }),
        unmapped: unmapped(row),
    });
}
/** The JSON Lines of `rows`: one event per line. */
function ocsfLines(rows, nowMs) {
    let out = '';
    for (const row of rows)
        out += `${JSON.stringify(ocsfFinding(row, nowMs))}\n`;
    return out;
}

// EXTERNAL MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/record.js
var record = __webpack_require__(25258);
;// CONCATENATED MODULE: ./node_modules/.cache/tenant-scan-build/src/pipeline/output/exports.js
// The CSV and OCSF files of a run or of a fleet: each written tenant by tenant to a temp file and
// renamed into place at the end, so a fleet of thousands of tenants is never held whole and a file
// is there whole or not at all. One writer for every face (scan run, scan results, the roll-up,
// the Action and its sub-actions).





/** Both files being written; `add` each tenant's source in turn, then `commit`. */
class FindingsExport {
    csv;
    ocsf;
    nowMs;
    constructor(csv, ocsf, nowMs) {
        this.csv = csv;
        this.ocsf = ocsf;
        this.nowMs = nowMs;
    }
    /** Opens the files asked for (none: an export that writes nothing). */
    static async open(paths, nowMs = Date.now()) {
        const csv = paths.csvPath ? await files/* AtomicFileWriter */.fz.open(paths.csvPath) : undefined;
        let ocsf;
        try {
            ocsf = paths.ocsfPath ? await files/* AtomicFileWriter */.fz.open(paths.ocsfPath) : undefined;
            await csv?.write(csvHead());
        }
        catch (error) {
            await Promise.all([csv?.abort(), ocsf?.abort()]);
            throw error;
        }
        return new FindingsExport(csv, ocsf, nowMs);
    }
    get wanted() {
        return this.csv !== undefined || this.ocsf !== undefined;
    }
    async add(source) {
        if (!this.wanted)
            return;
        const rows = [...(0,export_rows/* exportRows */.sK)(source)];
        await this.csv?.write(csvLines(rows));
        await this.ocsf?.write(ocsfLines(rows, this.nowMs));
    }
    async commit() {
        const written = {};
        if (this.csv)
            written.csvPath = await this.csv.commit();
        if (this.ocsf)
            written.ocsfPath = await this.ocsf.commit();
        return written;
    }
    async abort() {
        await Promise.all([this.csv?.abort(), this.ocsf?.abort()]);
    }
}
/** Writes the files of the sources given, whole or not at all. */
async function writeExports(sources, paths) {
    if (!paths.csvPath && !paths.ocsfPath)
        return {};
    const exports = await FindingsExport.open(paths);
    try {
        for await (const source of sources)
            await exports.add(source);
        return await exports.commit();
    }
    catch (error) {
        await exports.abort();
        throw error;
    }
}
/** A judged run as an export source: its findings as its record lists them. */
function runSource(run) {
    return {
        tenant: run.tenant ?? '',
        scanId: run.scan.id,
        time: run.scan.completedAt ?? null,
        findings: run.findings.map(record/* findingJson */.aO),
        fixed: run.fixed.map(record/* findingJson */.aO),
    };
}


/***/ })

};
