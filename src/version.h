/* The one place the version lives; reported in results' env. */
#ifndef IOTRIAL_VERSION_H
#define IOTRIAL_VERSION_H
#define IOTRIAL_VERSION "0.1.0"
/* The JSON schema every object iotrial writes names in "schema". */
#define IOTRIAL_SCHEMA "iotrial/1"
#endif
